// A faction as the console names it: its name on the game's map ("Aristocrats"), as players read
// it, never its id ("aristocrats"). The console speaks English (docs/press.md §9).
import { sideName } from '../../adjudicator/render/vocabulary.ts';
import { boardFor } from '../../games/index.ts';

export const factionName = (map: string, faction: string): string => sideName(boardFor(map), faction, 'en');
