export const alphaCall = () => 'alpha';
