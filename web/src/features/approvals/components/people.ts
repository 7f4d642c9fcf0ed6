import type { Person } from '../../../../../contract/approvals.ts';
import { MSG } from '../../../../../contract/messages.ts';

/** Looks people up by id in a request's `people`; an id it does not know is 'Unknown User'. */
export function peopleLookup(people: Person[]) {
  const byId = new Map(people.map((p) => [p.id, p]));
  return (id: string | null | undefined): Person => (id && byId.get(id)) || { id: id ?? '', name: MSG.unknownUser, email: '' };
}
export type PeopleLookup = ReturnType<typeof peopleLookup>;
