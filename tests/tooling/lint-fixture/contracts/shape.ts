export const shape = { name: 'shape' };
