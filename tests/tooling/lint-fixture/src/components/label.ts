import { codecName } from '../codec/codec.ts';

export const label = (text: string) => `${codecName}: ${text}`;
