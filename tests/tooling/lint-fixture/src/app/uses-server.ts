// The app reaching into the server.
import { route } from '../../server/route.ts';

export const usesServer = () => route();
