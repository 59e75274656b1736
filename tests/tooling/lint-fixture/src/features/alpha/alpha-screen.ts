// Allowed: its own feature, shared components, the libraries. Forbidden: another feature.
import { codecName } from '../../codec/codec.ts';
import { label } from '../../components/label.ts';
import { betaCall } from '../beta/beta-api.ts';
import { alphaCall } from './alpha-api.ts';

export const alphaScreen = () => [label(alphaCall()), betaCall(), codecName];
