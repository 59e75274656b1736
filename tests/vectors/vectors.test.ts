import { implementations } from '../codec/implementations.ts';
import { describeVectors } from './describe-vectors.ts';

for (const [name, codec] of await implementations()) describeVectors(name, codec);
