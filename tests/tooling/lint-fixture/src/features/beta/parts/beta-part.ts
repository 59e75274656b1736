// One folder deeper: its own feature's root is allowed, another feature is not.
import { label } from '../../../components/label.ts';
import { alphaCall } from '../../alpha/alpha-api.ts';
import { betaCall } from '../beta-api.ts';

export const betaPart = () => label(`${betaCall()} ${alphaCall()}`);
