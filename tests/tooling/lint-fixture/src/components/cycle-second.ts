import type { First } from './cycle-first.ts';

export const second = (): string => 'second';
export const describeFirst = (value: First) => value.name;
