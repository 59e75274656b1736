export const betaCall = () => 'beta';
