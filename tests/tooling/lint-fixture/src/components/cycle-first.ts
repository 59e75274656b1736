// cycle-first ↔ cycle-second: an import circle, even though one side only imports a type.
import { second } from './cycle-second.ts';

export interface First {
  name: string;
}
export const first = (): First => ({ name: second() });
