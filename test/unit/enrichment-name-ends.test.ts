import { describe, expect, it } from 'vitest';
import { nameOfLine as nameOf } from '../support/enrichment.ts';

/** Where a name read from a transfer's line ends: patterns of outside-dev-6's misses (ENRICHMENT_VERSION 10), each on a line written here. */
describe('a name read from the line ends where the line goes on to another field', () => {
  it("at a field's label (Mededeling:, Communication :, Kenmerk:), which never begins a name either", () => {
    expect(nameOf('OVERSCHRIJVING BAKKERIJ CLAES MEDEDELING: BESTELLING TAART', '-42.00')).toBe('Bakkerij Claes');
    expect(nameOf('VIREMENT DE GARAGE DUPONT COMMUNICATION : ENTRETIEN ANNUEL', '-180.00')).toBe('Garage Dupont');
    expect(nameOf('Kenmerk: Stichting Dierenhulp', '-10.00')).toBe('Dierenhulp'); // a foundation's leading Stichting goes since version 15
  });

  it('at an address: a street word with a house number after it', () => {
    expect(nameOf('VIREMENT EN EUROS DU COMPTE BE71 0961 2345 6769 BIC GKCCBEBB MARC DUBOIS AVENUE LOUISE 12 1050 BRUXELLES', '75.00')).toBe('Marc Dubois');
    expect(nameOf('RECIBO COMUNIDAD DE VECINOS C/ ALCALA 45', '-60.00')).toBe('Comunidad de Vecinos');
    // A street word that starts the name, or no house number after it, is the name's own.
    expect(nameOf('RUE DU COMMERCE', '-89.00')).toBe('Rue du Commerce');
    expect(nameOf('TRATTORIA VIA VENETO', '-38.00')).toBe('Trattoria Via Veneto');
  });

  it('at what the payment was for: Polish "za" after a name, an Italian transfer\'s number after its label', () => {
    expect(nameOf('PRZELEW NA TELEFON BLIK WYCHODZĄCY DO: PIOTR WIŚNIEWSKI ZA OBIAD', '-45.00', 'PLN')).toBe('Piotr Wiśniewski');
    expect(nameOf('BONIFICO SEPA a favore di: MARTA GALLI Num. Bon.Sepa 260671002118999 regalo', '-50.00')).toBe('Marta Galli');
  });

  it("a number glued to a purpose word (a tax form's PIT-36) is the purpose's, not the start of a name", () => {
    expect(nameOf('PRZELEW PRZYCHODZĄCY ZWROT PODATKU PIT-36 URZĄD SKARBOWY W RADOMIU', '812.00', 'PLN')).toMatch(/^Urząd Skarbowy/);
  });

  it("a person's name written surname first with a given name joined of two is shown given name first", () => {
    expect(nameOf('VIR SEPA EMIS /A M LEFEBVRE JEAN-PIERRE /MOTIF CADEAU', '-30.00')).toBe('Jean-Pierre Lefebvre');
    expect(nameOf('VIR SEPA RECU /DE MME GARNIER MARIE-CLAIRE /MOTIF REMBOURSEMENT', '30.00')).toBe('Marie-Claire Garnier');
  });
});
