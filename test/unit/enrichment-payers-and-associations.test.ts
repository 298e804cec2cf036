import { describe, expect, it } from 'vitest';
import { nameAndDetailed as both, detailedOfLine as detailedOf, enrichLine, nameOfLine as nameOf } from '../support/enrichment.ts';

/** Patterns of the development splits' misses read for ENRICHMENT_VERSION 14, each on a line written here. */
describe('payers, housing associations and small companies as an app names them', () => {
  it('writes out a US state’s department or agency that a bank shortened', () => {
    expect(both(enrichLine('MN DEPT REVENUE TAX REFUND PPD ID: 9410001122', '412.00', 'USD'))).toEqual(['Minnesota Department of Revenue', 'INCOME_TAX_REFUND']);
    expect(nameOf('ACH CREDIT KANSAS DEPT OF REVENUE TAXRFD 041526', '233.00', 'USD')).toBe('Kansas Department of Revenue');
    expect(nameOf('OR ESD UI BENEFIT 260412 XXXXX1180', '610.00', 'USD')).toBe('Oregon Employment Security Department');
    expect(nameOf('PA DEPT LABOR AND INDUSTRY DES:UC BENEFIT ID:1234 INDN:DANA LEE CO ID:1234 PPD', '498.00', 'USD')).toBe('Pennsylvania Department of Labor and Industry');
    expect(both(enrichLine('NV DEPT OF MOTOR VEH RENEWAL', '-62.00', 'USD'))).toEqual(['Nevada DMV', 'GOVERNMENT_AND_NON_PROFIT_GOVERNMENT_DEPARTMENTS_AND_AGENCIES']);
    expect(nameOf('DEPT EDUC LOAN SERV WEB ID: 9100000002', '-210.00', 'USD')).toBe('Department of Education');
    // A code that is also a word is a state only before a department or an agency.
    expect(nameOf('OR DEPT ZZZ SERVICES', '-10.00', 'USD')).not.toMatch(/Oregon/);
  });

  it('puts a person’s given name first when the line writes the surname first', () => {
    expect(both(enrichLine('ZELLE TO PATEL KEVIN ON 04/02 REF # PP9Q2K', '-75.00', 'USD'))).toEqual(['Kevin Patel', 'TRANSFER_OUT_ACCOUNT_TRANSFER']);
    expect(nameOf('Bonifico SEPA Italia a favore di GALLO GIOVANNA per cena', '-40.00')).toBe('Giovanna Gallo');
  });

  it('keeps a small company’s “Co” that no town stands before, and drops Colorado after its town', () => {
    expect(nameOf('SQ *JUNIPER SOAP CO', '-18.00', 'USD')).toBe('Juniper Soap Co');
    expect(nameOf('TST* ASPEN LEAF BREWING CO Golden CO 24112 : Debit Card Purchase 04/11', '-31.00', 'USD')).toBe('Aspen Leaf Brewing Co');
    expect(nameOf('KING SOOPERS #0412 BOULDER CO', '-54.10', 'USD')).toBe('King Soopers');
  });

  it('reads the party an Italian bank labels, and a payment through online banking as no internet bill', () => {
    expect(nameOf('PagoBancomat POS Pag. del 02/04/26 ora 09:12 presso: PROFUMERIA LANZA N.3   VIA GARIBALDI 8 ASTI ITA Carta N° *****311', '-22.50')).toBe('Profumeria Lanza');
    expect(nameOf('PAGAMENTO BOLLETTINO POSTALE 420260441299 DEL 02/04/2026 TRAMITE I.B. CCPOST : 000000000000 CREDITORE: COMUNE DI LECCO', '-85.00')).toBe('Comune di Lecco');
    expect(detailedOf('PAGAMENTI DIVERSI DA INTERNET BANKING E CSA CREDITORE: COMUNE DI LECCO', '-85.00')).not.toBe('RENT_AND_UTILITIES_INTERNET_AND_CABLE');
  });

  it('keeps a housing association’s building number, and the scheme’s company after a Belgian card line', () => {
    expect(nameOf('PRZELEW WYCHODZĄCY Wspólnota Mieszkaniowa Kwiatowa 9 zaliczka maj', '-410.00', 'PLN')).toBe('Wspólnota Mieszkaniowa Kwiatowa 9');
    expect(nameOf('Arve 2604 tasumine', '-75.00', 'EUR', { counterpartyName: 'Korteriühistu Tamme 4' })).toBe('Korteriühistu Tamme 4');
    expect(both(enrichLine('TILISIIRTO AS OY RANTAKATU 7 HOITOVASTIKE TOUKOKUU', '-260.00'))).toEqual(['As Oy Rantakatu 7', 'RENT_AND_UTILITIES_RENT']);
    expect(nameOf('BETALING MET DEBETKAART NUMMER 4871 04XX XXXX 1188 BAKKERIJ DE WIT AALST 9300 12/04/2026 BANCONTACT PAYCONIQ CO BANKREFERENTIE : 2604121002 VALUTADATUM : 12/04/2026', '-6.40')).toBe('Bakkerij de Wit');
  });

  it('reads a Polish payment for a flat to its cooperative as housing, savings goals as savings, and a pension as lodging', () => {
    expect(both(enrichLine('ST.ZLEC Nazwa i adres odbiorcy: SPÓŁDZIELNIA MIESZKANIOWA SŁONECZNA UL. LEŚNA 4 GDAŃSK Tytuł: OPŁATA ZA LOKAL 22', '-520.00', 'PLN'))).toEqual(['Spółdzielnia Mieszkaniowa Słoneczna', 'RENT_AND_UTILITIES_RENT']);
    expect(detailedOf('OPŁATA ZA PROWADZENIE RACHUNKU', '-9.00', 'PLN')).toBe('BANK_FEES_OTHER_BANK_FEES');
    expect(detailedOf('PRZELEW WEWNĘTRZNY WYCHODZĄCY NA CELE OSZCZĘDNOŚCIOWE WAKACJE', '-300.00', 'PLN')).toBe('TRANSFER_OUT_SAVINGS');
    expect(detailedOf('ZAKUP PRZY UŻYCIU KARTY ZA GRANICĄ PENZION POD LIPOU/BANSKA STIAVNICA', '-84.00', 'PLN')).toBe('TRAVEL_LODGING');
  });

  it('names Satispay for a top-up of its wallet, ends an Italian name before "per", and keeps a Dutch surname’s VAN DEN', () => {
    expect(both(enrichLine('ADDEBITO DIRETTO SDD SATISPAY EUROPE S.A. CID LU22ZZZ0000000000B211031 RICARICA SETTIMANALE', '-50.00'))).toEqual(['Satispay', 'TRANSFER_OUT_ACCOUNT_TRANSFER']);
    expect(nameOf('BONIFICO A VOSTRO FAVORE TRN 0306955511122233344455566IT DA LUCA FERRARI PER QUOTA CALCETTO', '15.00')).toBe('Luca Ferrari');
    expect(nameOf('STORTING VAN BE12 3456 7890 1234 VAN DER MEULEN TRANSPORT BV LOON APRIL 2026', '2310.00')).toBe('Van der Meulen Transport');
  });

  it('reads a motor vehicles department’s fee as no bank’s, and a German transfer to a person with its gift as the purpose', () => {
    expect(both(enrichLine('AZ DMV FEE', '-32.00', 'USD'))).toEqual(['Arizona DMV', 'GOVERNMENT_AND_NON_PROFIT_GOVERNMENT_DEPARTMENTS_AND_AGENCIES']);
    expect(both(enrichLine('SEPA-Überweisung an Lena Schubert Geburtstag', '-30.00'))).toEqual(['Lena Schubert', 'TRANSFER_OUT_ACCOUNT_TRANSFER']);
    expect(both(enrichLine('SEPA-Gutschrift von Jonas Weber Geschenk', '50.00'))).toEqual(['Jonas Weber', 'TRANSFER_IN_ACCOUNT_TRANSFER']);
  });

  it('reads initials and a surname as a person, a firm’s initials joined by an ampersand as a firm, and a savings account’s dividend as interest', () => {
    expect(both(enrichLine('Naam: K. Jansen Omschrijving: Etentje vrijdag IBAN: NL02ABNA0123456789', '-35.00'))).toEqual(['K. Jansen', 'TRANSFER_OUT_ACCOUNT_TRANSFER']);
    expect(both(enrichLine('SEPA Overboeking IBAN: NL20RABO0123456789 BIC: RABONL2U Naam: M.A. Visser Omschrijving: Verjaardag', '25.00'))).toEqual(['M.A. Visser', 'TRANSFER_IN_ACCOUNT_TRANSFER']);
    expect(both(enrichLine('K PATEL FPI PIZZA MONEY', '-20.00', 'GBP'))).toEqual(['K Patel', 'TRANSFER_OUT_ACCOUNT_TRANSFER']);
    expect(detailedOf('R & J PLUMBING DES:PAYROLL ID:XXXX INDN:Ana Cruz CO ID:XXXX PPD', '1210.00', 'USD')).toBe('INCOME_WAGES');
    expect(detailedOf('Deposit Dividend 0.150%', '1.12', 'USD')).toBe('INCOME_INTEREST_EARNED');
    expect(detailedOf('ORDINARY DIVIDEND AAPL', '12.40', 'USD')).toBe('INCOME_DIVIDENDS');
  });

  it('writes out the abbreviations of a US or UK payer’s name in the name’s case', () => {
    expect(nameOf('BOISE PUBLIC SCH DES:PAYROLL ID:XXXX INDN:LEE ANNA CO ID:XXXX PPD', '2210.00', 'USD')).toBe('Boise Public Schools');
    expect(nameOf('BANK GIRO CREDIT REF LEGAL AID SERV AUTH PAYROLL', '1980.00', 'GBP')).toBe('Legal Aid Services Authority');
    expect(nameOf('KIA MTR FIN DES:AUTO PAY ID:XXXX INDN:LEE ANNA CO ID:XXXX WEB', '-410.00', 'USD')).toBe('Kia Motor Finance');
    // FIN after MOTOR is finance, not Finland's code at the line's end.
    expect(nameOf('MAZDA MOTOR FIN ACH WEB-RECUR', '-380.00', 'USD')).toBe('Mazda Motor Finance');
  });

  it('keeps the pharmacist’s name after a Spanish pharmacy’s title, and a Portuguese company’s LDA as its legal form', () => {
    expect(nameOf('COMPRA TARJ. 5402XXXXXXXX1127 FARMACIA LDA. CARMEN LOPEZ MALAGA', '-8.40')).toBe('Farmacia Carmen Lopez');
    expect(nameOf('TRF CR SEPA+ 0000012 DE OFICINA RAMOS & FILHOS LDA', '950.00')).toBe('Oficina Ramos & Filhos');
  });

  it('reads the second blind set’s wordings, once it became a development set', () => {
    expect(both(enrichLine('Tikkie ID 000771234567, Lunch dinsdag, Femke Jansen', '12.50', 'EUR', { counterpartyName: 'AAB INZ TIKKIE' }))).toEqual(['Femke Jansen', 'TRANSFER_IN_ACCOUNT_TRANSFER']);
    expect(nameOf('VIREMENT INSTANTANE DE LAURENT PETIT REMBOURSEMENT RESTO', '25.00')).toBe('Laurent Petit');
    expect(nameOf('PAYCONIQ BY BANCONTACT FRITUUR T PLEINTJE GENT REF 88120999', '-9.50')).toMatch(/^Frituur/);
    expect(nameOf('PAGAMENTO TRAMITE POS 02/05/2025 09:10 CARTA *1234 STRIPE*LIBRERIA DEL CORSO PAVIA', '-18.00')).toBe('Libreria del Corso');
    expect(nameOf('Bs betaling VANDCENTER SYD A/S 6120044', '-310.00', 'DKK')).toBe('Vandcenter Syd');
    expect(nameOf('10/05/2025 11:20 kaart...441298 KOHVIK PUSS/TARTU/EST #120088', '-4.20')).toBe('Kohvik Puss');
    expect(nameOf('ACH DEBIT WA DEPT LICENSING VEHICLE TABS', '-89.00', 'USD')).toBe('Washington Department of Licensing');
    expect(detailedOf('Gyventojų pajamų mokesčio permoka 2025', '142.00', 'EUR', { counterpartyName: 'Valstybinė mokesčių inspekcija' })).toBe('INCOME_TAX_REFUND');
    expect(detailedOf('PAGAMENTO BOLLETTA CBILL ACEA ATO 2 SERVIZIO IDRICO COD. 00412233', '-64.00')).toBe('RENT_AND_UTILITIES_WATER');
    expect(nameOf('STORTING VAN BV DAKWERKEN PEETERS LOON APRIL 2025', '2240.00')).toBe('Dakwerken Peeters');
  });

  it('a health insurer’s refund of care is other income, not a transfer (ENRICHMENT_VERSION 16)', () => {
    expect(detailedOf('VIR SEPA MUTUELLE BLEUE remboursement soins', '38.50')).toBe('INCOME_OTHER_INCOME');
    expect(detailedOf('VIR HARMONIE MUTUELLE REMBT SOINS 0412', '22.00')).toBe('INCOME_OTHER_INCOME');
  });

  it("Belgian pay, benefits, vouchers and fees in their own words (ENRICHMENT_VERSION 16)", () => {
    // Holiday pay and the end-of-year bonus are pay; the employer is named, not the word for the bonus.
    expect(both(enrichLine('EINDEJAARSPREMIE 2025 SCHRIJNWERKERIJ MAES', '1650.00'))).toEqual(['Schrijnwerkerij Maes', 'INCOME_WAGES']);
    expect(detailedOf('VIREMENT PECULE DE VACANCES 2025 MENUISERIE DUBOIS SRL', '1650.00')).toBe('INCOME_WAGES');
    // A Belgian NV after a number is no US state's code with a store number before it.
    expect(nameOf('OVERSCHRIJVING VAKANTIEGELD 2025 SCHRIJNWERKERIJ MAES NV', '1650.00')).toBe('Schrijnwerkerij Maes');
    expect(both(enrichLine('EUROPESE DOMICILIERING PLUXEE DIENSTENCHEQUES BESTELLING 4412', '-270.00'))).toEqual(['Pluxee', 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES']);
    expect(both(enrichLine('TERUGBETALING CM GENEESKUNDIGE VERZORGING 0412', '28.40'))).toEqual(['CM', 'INCOME_OTHER_INCOME']);
    expect(both(enrichLine('STORTING KINDERBIJSLAG FONS 03/2026', '171.00'))).toEqual(['Fons', 'INCOME_OTHER_INCOME']);
    expect(both(enrichLine('PENSIOEN FPD APRIL', '1540.00'))).toEqual(['Federale Pensioendienst', 'INCOME_RETIREMENT_PENSION']);
    expect(detailedOf('FRAIS DE GESTION COMPTE 03/2026', '-2.50')).toBe('BANK_FEES_OTHER_BANK_FEES');
    expect(both(enrichLine('BETALING MET DEBETKAART 12/03 QUICK LEUVEN', '-11.40'))).toEqual(['Quick', 'FOOD_AND_DRINK_FAST_FOOD']);
    // JAN after a surname and before what the payment was for is the landlord's given name, not January.
    expect(nameOf('OVERSCHRIJVING NAAR WOUTERS JAN HUUR APRIL', '-850.00')).toBe('Jan Wouters');
  });
});
