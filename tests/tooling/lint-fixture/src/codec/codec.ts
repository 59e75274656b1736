import { shape } from '../../contracts/shape.ts';

export const codecName = shape.name;
