import type { PostalAddress, ProviderOwner } from '../provider-owners.ts';
import type { AccountRole } from './household.ts';

/*
 * Who holds the sandbox's accounts: the same two people at every institution of a country, whoever
 * the profile is (like Plaid's sandbox identity), so an app can test its owner match against known
 * data. Names, addresses and the German and Swedish phone numbers are made up; the US numbers are in
 * 555-0100–0199, kept for fiction, and every email is at example.com. Phone numbers are written as the
 * institution would, in its national format (the service shows them in E.164).
 */

interface Person {
  name: string;
  email: string;
  workEmail: string;
  mobile: string;
  home: string;
}

interface Household {
  holder: Person;
  partner: Person;
  address: PostalAddress;
}

const HOUSEHOLDS: Record<string, Household> = {
  US: {
    holder: { name: 'Robert James Smith', email: 'robert.smith@example.com', workEmail: 'rsmith@work.example.com', mobile: '(415) 555-0142', home: '(415) 555-0178' },
    partner: { name: 'Alice Smith', email: 'alice.smith@example.com', workEmail: 'asmith@work.example.com', mobile: '(415) 555-0163', home: '(415) 555-0178' },
    address: { line1: '2200 Platypus Way', line2: 'Apt 4B', city: 'San Francisco', region: 'CA', postalCode: '94110', country: 'US' },
  },
  DE: {
    holder: { name: 'Maximilian Müller', email: 'max.mueller@example.com', workEmail: 'm.mueller@work.example.com', mobile: '0151 23456789', home: '030 23125678' },
    partner: { name: 'Erika Müller', email: 'erika.mueller@example.com', workEmail: 'e.mueller@work.example.com', mobile: '0151 23456780', home: '030 23125678' },
    address: { line1: 'Lindenstraße 12', line2: null, city: 'Berlin', region: null, postalCode: '10969', country: 'DE' },
  },
  SE: {
    holder: { name: 'Erik Andersson', email: 'erik.andersson@example.com', workEmail: 'erik.a@work.example.com', mobile: '070-174 06 05', home: '08-46 50 04 10' },
    partner: { name: 'Anna Andersson', email: 'anna.andersson@example.com', workEmail: 'anna.a@work.example.com', mobile: '070-174 06 06', home: '08-46 50 04 10' },
    address: { line1: 'Storgatan 7', line2: null, city: 'Stockholm', region: null, postalCode: '114 51', country: 'SE' },
  },
};

/** Accounts the couple holds together; the others are the holder's alone. */
const JOINT: ReadonlySet<AccountRole> = new Set(['checking', 'savings', 'loan']);

/** The owners of the account with this role at an institution of `country` (a joint account has two, each a CO_HOLDER). */
export function sandboxOwnersOf(role: AccountRole, country: string): ProviderOwner[] {
  const household = HOUSEHOLDS[country] ?? HOUSEHOLDS.US!;
  if (!JOINT.has(role)) return [ownerOf(household.holder, household.address, 'HOLDER')];
  return [ownerOf(household.holder, household.address, 'CO_HOLDER'), ownerOf(household.partner, household.address, 'CO_HOLDER')];
}

function ownerOf(person: Person, address: PostalAddress, role: ProviderOwner['role']): ProviderOwner {
  return {
    names: [person.name],
    emails: [
      { address: person.email, primary: true, type: 'PRIMARY' },
      { address: person.workEmail, primary: false, type: 'SECONDARY' },
    ],
    phoneNumbers: [
      { number: person.mobile, primary: true, type: 'MOBILE' },
      { number: person.home, primary: false, type: 'HOME' },
    ],
    addresses: [{ address, primary: true }],
    role,
  };
}
