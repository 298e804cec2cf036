import { describe, expect, it } from 'vitest';
import { enrichLine as of, nameOfLine as nameOf } from '../support/enrichment.ts';

/** Bank wording seen in public importers' fixtures (eval/enrichment/outside-dev-3.jsonl), each pattern on a line written here. */
describe('names read through the wording of a third development set', () => {
  it("US credit unions' core wording before the name, and the payer before an ACH entry's star", () => {
    expect(nameOf('Withdrawal Debit Card MOSAIC BOOKS PHOENIX AZ', '-18.00', 'USD')).toBe('Mosaic Books');
    expect(nameOf('Deposit ACH CANYON FREIGHT LLC*PAYROLL', '950.00', 'USD')).toBe('Canyon Freight');
    expect(of('Fee Withdrawal ; Courtesy Pay fee', '-30.00', 'USD')).toMatchObject({ merchant: null, category: { detailed: 'BANK_FEES_OVERDRAFT_FEES' } });
  });

  it("US card descriptors: the name ends at the store number; a town the name repeats, or written in title case after capitals, goes", () => {
    expect(nameOf('PRAIRIE DONUTS 20417 MARSHALLTOWN IA            04/11', '-6.20', 'USD')).toBe('Prairie Donuts');
    expect(nameOf('RED BARN FEED #88 1200 MAIN ST SPENCER IA  410221  04/12', '-31.00', 'USD')).toBe('Red Barn Feed');
    expect(nameOf('BLUFF CITY PIZZA - KEOKUK KEOKUK IA             04/13', '-19.50', 'USD')).toBe('Bluff City Pizza');
    expect(nameOf('SQ *HAPPY TAILS GROOMING Cedar Falls IA     04/14', '-45.00', 'USD')).toBe('Happy Tails Grooming');
    // A name in title case keeps its words: only the state goes.
    expect(nameOf('TST* Luna Taqueria Austin TX', '-14.00', 'USD')).toBe('Luna Taqueria');
  });

  it('Cash App and Givelify prefixes: the person or the church after the star', () => {
    expect(nameOf('CASH APP*ROSA DIAZ 8774174551 CA', '-12.00', 'USD')).toBe('Rosa Diaz');
    expect(nameOf('SQC*CASH APP 8774174551 CA', '-5.00', 'USD')).toBe('Cash App');
    expect(nameOf('GIV*HOPE CHAPEL 5551234567 TX', '-40.00', 'USD')).toBe('Hope Chapel');
  });

  it('Danish card, cash machine and transfer wording: Visa køb with its amount and Den date, DK-nota, Pengeautomat, Overførsel, MobilePay Betaling til', () => {
    expect(nameOf('Visa køb DKK 89,00 BOGHANDLEN AROS Den 02.04', '-89.00', 'DKK')).toBe('Boghandlen Aros');
    expect(nameOf('DK-NOTA BAGERIET KORNET 03.04', '-42.00', 'DKK')).toBe('Bageriet Kornet');
    expect(of('Pengeautomat den 04.04. kl. 10.12   1122-33 eksnr. 4455', '-300.00', 'DKK')).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_OUT_WITHDRAWAL' } });
    expect(nameOf('Overførsel fra Lise Dahl', '150.00', 'DKK')).toBe('Lise Dahl');
    expect(nameOf('MobilePay Betaling til Cykelsmeden', '-220.00', 'DKK')).toBe('Cykelsmeden');
  });

  it("French prefixes (EVI, PRELEVEMENT SEPA EN FAVEUR DE, REM CHQ) and Budget Insight's NAME\\CITY\\ FR", () => {
    expect(nameOf('EVI CLUB DE TENNIS DES PINS', '-120.00')).toBe('Club de Tennis des Pins');
    expect(nameOf('PRELEVEMENT SEPA EN FAVEUR DE MUTUELLE DES ARTISANS', '-80.00')).toBe('Mutuelle des Artisans');
    expect(of('REM CHQ 1234567', '95.00')).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_IN_DEPOSIT' } });
    expect(nameOf('CREPERIE SAINT GEORGES\\RENNES\\ FR', '-23.00')).toBe('Creperie Saint Georges');
  });

  it("agencies and toll operators written out as directories spell them: DGFiP, CPAM, CAF, URSSAF, Ireland's DSP and Revenue, APRR", () => {
    expect(nameOf('PRLV SEPA DIRECTION GENERALE DES FINANCES PUBLIQUES TAXE FONCIERE', '-540.00')).toBe('DGFiP');
    expect(nameOf('VIR SEPA RECU C.P.A.M. DE LYON', '31.50')).toBe('CPAM');
    expect(nameOf('VIR CAF DES YVELINES', '140.00')).toBe('CAF');
    expect(nameOf('PRLV SEPA URSSAF ILE DE FRANCE', '-220.00')).toBe('URSSAF');
    expect(nameOf('DEPT SOCIAL PROTECT JOBSEEKERS', '220.00')).toBe('Department of Social Protection');
    expect(nameOf('REVENUE COMM PAYE REFUND', '410.00')).toBe('Revenue Commissioners');
    expect(of('PAIEMENT CB 0206 PEAGE APRR', '-12.30')).toMatchObject({ merchant: { name: 'APRR' }, category: { detailed: 'TRANSPORTATION_TOLLS' } });
  });

  it('towns that end card lines in Belgium, around Bordeaux and in the US West and Midwest are dropped from the name', () => {
    expect(nameOf('BETALING MET DEBETKAART NUMMER 4871 04XX XXXX 3301 TAVERNE DE KROON ZAVENTEM 03/04/2025', '-24.00')).toBe('Taverne de Kroon');
    expect(nameOf('CARTE 05/04 LIBRAIRIE MOLLAT MERIGNAC', '-16.90')).toBe('Librairie Mollat');
    expect(nameOf('Withdrawal Debit Card DESERT SUN NURSERY MESA AZ', '-32.00', 'USD')).toBe('Desert Sun Nursery');
  });

  it("what a payer adds after the name is no part of it: a reference's label, a direct deposit, a refund in Dutch", () => {
    expect(nameOf('BILL PAYMENT VIA FASTER PAYMENT TO MS L GRANT REFERENCE BOOK CLUB', '-15.00', 'GBP')).toBe('L Grant');
    expect(nameOf('NORTHFIELD CLINIC DIR DEP                    PPD ID: 1234567890', '1500.00', 'USD')).toBe('Northfield Clinic');
  });

  it('categories: contributions paid to ZUS are a tax, its benefits stay income; a Praxis megastore is a DIY shop', () => {
    expect(of('PRZELEW ZEWNĘTRZNY DO ZUS SKŁADKA ZDROWOTNA 04/2025', '-380.00', 'PLN')).toMatchObject({ merchant: { name: 'ZUS' }, category: { detailed: 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT' } });
    expect(of('Przelew przychodzący ZUS EMERYTURA 05/2025', '2100.00', 'PLN').category?.primary).toBe('INCOME');
    expect(of('Praxis Megastore Utrecht', '-42.00')).toMatchObject({ merchant: { name: 'Praxis' }, category: { detailed: 'HOME_IMPROVEMENT_HARDWARE' } });
  });

  it('a person written surname first (French, Belgian and Polish transfers) is named given name first; a shop or a place is not turned', () => {
    expect(nameOf('VIR SEPA EMIS VERS M. GARNIER THOMAS', '-50.00')).toBe('Thomas Garnier');
    expect(nameOf('BLIK P2P-PRZYCHODZĄCY NOWAK PIOTR obiad', '35.00', 'PLN')).toBe('Piotr Nowak');
    expect(nameOf('OVERSCHRIJVING VAN PEETERS LIES', '25.00')).toBe('Lies Peeters');
    expect(nameOf('CARTE 06/04 BOULANGERIE PAUL', '-4.20')).not.toBe('Paul Boulangerie');
    expect(nameOf('CARTE 07/04 SAINT PAUL', '-9.00')).toBe('Saint Paul');
  });

  it("a payer's words in title case after a name in capitals end it; KBC's card time (om 08.12 uur) is not Estonian rent", () => {
    expect(nameOf('PRLV SEPA MUTUELLE VERTE Assurance sante RUM 4411', '-18.00')).toBe('Mutuelle Verte');
    expect(of('BAKKERIJ HERMANS MOL BE2400 MOL Betaling met Apple Pay via Debit Mastercard 04-04-2025 om 09.41 uur 5127 04XX XXXX 1637', '-7.20').category?.detailed).not.toBe('RENT_AND_UTILITIES_RENT');
    expect(of('Üür mai', '-600.00', 'EUR', { counterpartyName: 'MARI KASK' }).category?.detailed).toBe('RENT_AND_UTILITIES_RENT');
  });

  it("money in from a government agency is a benefit (other income), not a payment to the agency; a letting agent or apartments are rent", () => {
    expect(of('VIREMENT SEPA RECU CPAM DE RENNES', '42.10')).toMatchObject({ merchant: { name: 'CPAM' }, category: { detailed: 'INCOME_OTHER_INCOME' } });
    expect(of('PRLV SEPA URSSAF BRETAGNE', '-150.00').category?.detailed).toBe('GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT');
    expect(of('STANDING ORDER TO RIVERSIDE LETTINGS', '-900.00', 'GBP').category?.detailed).toBe('RENT_AND_UTILITIES_RENT');
    expect(of('MAPLE RIDGE APTS WEB PMTS   ZK1122          WEB ID: 1234567890', '-1200.00', 'USD').category?.detailed).toBe('RENT_AND_UTILITIES_RENT');
  });

  it("US card issuers and a mortgage lender are named on their bills; a card bill, COTIS and a French foreign-operation fee name no one; Irish O' names keep their apostrophe", () => {
    expect(of('CHASE CREDIT CRD EPAY       PPD ID: 1112223334', '-450.00', 'USD')).toMatchObject({ merchant: { name: 'Chase' }, category: { detailed: 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT' } });
    expect(of('WELLS FARGO HOME MTG ONLINE PMT 0425', '-1900.00', 'USD')).toMatchObject({ merchant: { name: 'Wells Fargo' }, category: { detailed: 'LOAN_PAYMENTS_MORTGAGE_PAYMENT' } });
    expect(of('CARD PAYMENT TO MASTERCARD', '-250.00', 'GBP')).toMatchObject({ merchant: null, category: { detailed: 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT' } });
    expect(of('COTIS FORMULE ZEN', '-6.50')).toMatchObject({ merchant: null, category: { detailed: 'BANK_FEES_OTHER_BANK_FEES' } });
    expect(of("COMMISSION SUR OPERATION A L'ETRANGER 2,1%", '-1.80')).toMatchObject({ merchant: null, category: { detailed: 'BANK_FEES_FOREIGN_TRANSACTION_FEES' } });
    expect(of('NON-GBP PURCH FEE          2.99% CD 5521', '-0.95', 'GBP')).toMatchObject({ merchant: null, category: { detailed: 'BANK_FEES_FOREIGN_TRANSACTION_FEES' } });
    expect(nameOf('POS21MAR O SULLIVANS BAKERY', '-5.40')).toBe("O'Sullivans Bakery");
  });

  it('a French transfer (VIR, VIREMENT) names its counterparty, a name written twice counts once, an Italian surname-first name is turned', () => {
    expect(nameOf('VIR SEPA INST M LAMBERT JULIEN cadeau', '30.00')).toBe('Julien Lambert');
    expect(nameOf('VIR INST ROUX CLAIRE  ROUX CLAIRE  99120ABCD', '-60.00')).toBe('Claire Roux');
    expect(nameOf('BONIFICO A FAVORE DI ESPOSITO GIULIA AFFITTO MAGGIO', '-650.00')).toBe('Giulia Esposito');
  });

  it('US regional chains, fuel stops and utilities SimpleFIN lines name are in the directory', () => {
    expect(of("LOVE'S TRAVEL 00412 AMARILLO TX        03/02", '-61.20', 'USD')).toMatchObject({ merchant: { name: "Love's" }, category: { detailed: 'TRANSPORTATION_GAS' } });
    expect(of('TRACTOR SUPPLY #1234 BOZEMAN MT', '-89.99', 'USD')).toMatchObject({ merchant: { name: 'Tractor Supply' }, category: { detailed: 'HOME_IMPROVEMENT_HARDWARE' } });
    expect(of('ORIG CO NAME:MIDAMERICAN ENERG CO ENTRY DESCR:WEB PMT    SEC:WEB', '-102.00', 'USD')).toMatchObject({ merchant: { name: 'MidAmerican Energy' }, category: { detailed: 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY' } });
  });
});
