/**
 * US government payers and billers as banks shorten them, written as an app shows them: a state's code
 * and its department (IA DEPT REVENUE → Iowa Department of Revenue, OHIO DEPT OF TAXATION → Ohio
 * Department of Taxation, DEPT EDUCATION → Department of Education), or its agency's acronym (WA ESD →
 * Washington Employment Security Department; CA EDD → California EDD, an acronym people use as the name).
 * A code that is also a word (CO, IN, OR, ME) is read as a state only before a department or an agency.
 */
import places from './data/places.json' with { type: 'json' };

/** Each state's name by its USPS code (data/places.json, which the cleaning reads too), and New York State's code on its tax and labor lines. */
const STATE_NAMES: ReadonlyMap<string, string> = new Map([...Object.entries(places.usStates), ['NYS', 'New York State']]);
/** Each state's name in capitals, its words apart: a line may write the name instead of the code (OHIO DEPT OF TAXATION, NEW YORK STATE DEPT). */
const STATES_BY_NAME: ReadonlyArray<readonly [readonly string[], string]> = [...STATE_NAMES.values()].map((name) => [name.toUpperCase().split(' '), name] as const);

/** State agencies' acronyms after the state's code, and what an app shows after the state's name. */
const AGENCIES: ReadonlyMap<string, string> = new Map([
  ['ESD', 'Employment Security Department'], ['DES', 'Department of Economic Security'], ['DOR', 'Department of Revenue'], ['DOL', 'Department of Labor'],
  ['EDD', 'EDD'], ['DMV', 'DMV'], ['DPS', 'DPS'], ['DOT', 'DOT'],
]);
const DEPARTMENT: ReadonlySet<string> = new Set(['DEPT', 'DEPARTMENT']);
/** What a department is of, in the words banks shorten it to (longest first where one starts another), and the agency's name an app shows (the motor vehicles department goes by its acronym). */
const DEPARTMENTS: ReadonlyArray<readonly [readonly string[], string]> = [
  [['LABOR', 'AND', 'EMPLOYMENT'], 'Department of Labor and Employment'], [['LABOR', 'EMPLOYMENT'], 'Department of Labor and Employment'], [['LABOR', 'EMPL'], 'Department of Labor and Employment'],
  [['LABOR', 'EM'], 'Department of Labor and Employment'], [['LABOR', 'AND', 'INDUSTRY'], 'Department of Labor and Industry'], [['LABOR'], 'Department of Labor'],
  [['REVENUE'], 'Department of Revenue'], [['REV'], 'Department of Revenue'], [['TAXATION'], 'Department of Taxation'], [['EDUCATION'], 'Department of Education'], [['EDUC'], 'Department of Education'],
  [['ED'], 'Department of Education'], [['TREASURY'], 'Department of the Treasury'], [['TREAS'], 'Department of the Treasury'], [['HUMAN', 'SERVICES'], 'Department of Human Services'],
  [['HUMAN', 'SVCS'], 'Department of Human Services'], [['VETERANS', 'AFFAIRS'], 'Department of Veterans Affairs'], [['ECONOMIC', 'SECURITY'], 'Department of Economic Security'],
  [['WORKFORCE', 'DEVELOPMENT'], 'Department of Workforce Development'], [['TRANSPORTATION'], 'Department of Transportation'], [['LICENSING'], 'Department of Licensing'], [['MOTOR', 'VEHICLES'], 'DMV'], [['MOTOR', 'VEH'], 'DMV'],
];

/**
 * A name read from a US line with a government department or agency written out as above; as it is otherwise. An agency's
 * acronym alone takes the state the line (`line`, normalized) names after it (DMV CA RENEWAL, DMV RENEWAL ONLINE CA: California DMV).
 */
export function withUsAgencyWritten(name: string, line: string): string {
  const words = name.toUpperCase().split(' ');
  const [state, after] = stateAt(words);
  const agency = state === undefined ? undefined : AGENCIES.get(words[after] ?? '');
  if (agency) return `${state} ${agency}`;
  // A state's own name as an employer or a payer (STATE OF NC): the state written out, as is a state's name an ACH company field cut (STATE OF MINNESO, COMMONWEALTH OF P).
  const stateOf = words.length === 3 && OF_A_STATE.has(words[0]!) && words[1] === 'OF' ? (STATE_NAMES.get(words[2]!) ?? stateStartingWith(words[2]!, words[0]!)) : undefined;
  if (stateOf) return `${name.split(' ', 2).join(' ')} ${stateOf}`;
  const alone = words.length === 1 ? AGENCIES.get(words[0]!) : undefined;
  const stateAfter = alone && stateAfterAgency(line.split(' '), words[0]!);
  if (stateAfter) return `${stateAfter} ${alone}`;
  if (!DEPARTMENT.has(words[after] ?? '')) return name;
  const of = words[after + 1] === 'OF' ? after + 2 : after + 1;
  const department = DEPARTMENTS.find(([subjectWords]) => subjectWords.every((word, index) => words[of + index] === word))?.[1];
  return department ? `${state === undefined ? '' : `${state} `}${department}` : name;
}

/** The state whose code follows `agency` in the line's words, or ends the line (DMV RENEWAL ONLINE CA). */
function stateAfterAgency(words: readonly string[], agency: string): string | undefined {
  const at = words.indexOf(agency);
  if (at < 0) return undefined;
  return STATE_NAMES.get(words[at + 1] ?? '') ?? (words.length - 1 > at ? STATE_NAMES.get(words.at(-1)!) : undefined);
}

/** What a state's name follows as a payer's: the state itself, a commonwealth, a state's university. */
const OF_A_STATE: ReadonlySet<string> = new Set(['STATE', 'COMMONWEALTH', 'UNIVERSITY']);
/** The commonwealths among the states: a commonwealth's name cut to a letter is one of these. */
const COMMONWEALTHS: ReadonlySet<string> = new Set(['Kentucky', 'Massachusetts', 'Pennsylvania', 'Virginia']);

/** The one state whose name starts with `start` (cut by a 16-character ACH field), among the commonwealths after COMMONWEALTH; none when several do. */
function stateStartingWith(start: string, before: string): string | undefined {
  const names = [...STATE_NAMES.values()].filter((state) => state.toUpperCase().startsWith(start) && (before !== 'COMMONWEALTH' || COMMONWEALTHS.has(state)));
  return names.length === 1 && (start.length >= 3 || before === 'COMMONWEALTH') ? names[0] : undefined;
}

/** The state the words start with (its code or its name) and where the words after it start; no state and 0 when none does. */
function stateAt(words: readonly string[]): [string | undefined, number] {
  const byCode = STATE_NAMES.get(words[0]!);
  if (byCode) return [byCode, 1];
  const named = STATES_BY_NAME.find(([nameWords]) => nameWords.every((word, index) => words[index] === word));
  return named ? [named[1], named[0].length] : [undefined, 0];
}
