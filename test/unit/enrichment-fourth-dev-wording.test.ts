import { describe, expect, it } from 'vitest';
import { enrichLine as of, nameOfLine as nameOf } from '../support/enrichment.ts';

/** Bank wording seen in public importers' fixtures and parsers (eval/enrichment/outside-dev-4.jsonl), each pattern on a line written here. */
describe('names read through the wording of a fourth development set', () => {
  it("US community banks' and credit unions' wording before the name", () => {
    expect(nameOf('PREAUTHORIZED CREDIT HILLTOP ORCHARDS PAYROLL 260410', '1200.00', 'USD')).toBe('Hilltop Orchards');
    expect(nameOf('MERCHANT PURCHASE TERMINAL 338120 COUNTRY CORNER MARKET', '-22.10', 'USD')).toBe('Country Corner Market');
    expect(nameOf('External Deposit BRIGHTPATH LABS - DIRECT DEP', '1800.00', 'USD')).toBe('Brightpath Labs');
    expect(nameOf('Online ACH payment to Daniel Ortiz', '-60.00', 'USD')).toBe('Daniel Ortiz');
    expect(nameOf('VISA DDA PUR 552910 OAK HOLLOW KENNELS', '-80.00', 'USD')).toBe('Oak Hollow Kennels');
  });

  it("ING Śląski's channel codes and labels before the counterparty, and its street after", () => {
    expect(nameOf('TR.KART Płatność kartą 02.04.2026 Nr karty 4246xx1100 CUKIERNIA SŁODKI KĄCIK', '-18.00', 'PLN')).toBe('Cukiernia Słodki Kącik');
    expect(nameOf('P.BLIK Przelew na telefon +48 512 *** 880 Dla TOMASZ LIS obiad', '-35.00', 'PLN')).toBe('Tomasz Lis');
    expect(nameOf('PRZELEW Nazwa i adres płatnika: MEBLOTECH SP. Z O.O. UL. LEŚNA 3 GNIEZNO Tytuł: WYNAGRODZENIE', '5100.00', 'PLN')).toBe('Meblotech');
  });

  it('Spanish card and transfer wording: the shop before the town and the card, the person after Inmediata', () => {
    expect(nameOf('Transaccion Contactless En Libreria Atenea, Oviedo, Tarj. :*661200', '-16.50')).toBe('Libreria Atenea');
    expect(nameOf('Compra Internet En Tienda Verde, Murcia, Tarj. :*661200', '-42.00')).toBe('Tienda Verde');
    expect(nameOf('Transferencia Inmediata A Favor De Irene Navarro Concepto: entradas', '-30.00')).toBe('Irene Navarro');
  });

  it("a receipt's, a branch's or a card code's word after the shop ends its name (Danish Nota, Dutch Pasvolgnr, UK CPM)", () => {
    expect(nameOf('Dankort-køb Isbutikken Hav Nota 2210', '-45.00', 'DKK')).toBe('Isbutikken Hav');
    expect(nameOf('Viswinkel Noordzee Pasvolgnr: 004 02-04-2026 12:10 Transactie: 7A11B2 Term: VW0101', '-11.40')).toBe('Viswinkel Noordzee');
    expect(nameOf('THE OLD MILL TEAROOM ON 02 APR CPM', '-9.60', 'GBP')).toBe('The Old Mill Tearoom');
  });

  it("a credit union's share draft and share transfer name no one", () => {
    expect(of('SHARE DRAFT #2210', '-40.00', 'USD').merchant).toBeNull();
    expect(of('DEP TFR FROM SHARE 09', '75.00', 'USD').merchant).toBeNull();
  });

  it("a US card descriptor's town is dropped after a name ending in its trade's word, also before a dashed date or a long reference", () => {
    expect(nameOf('POS PURCHASE TERMINAL 55120 SUNRISE BAKERY NORFOLK NE 04-02-26 XXXXXXXXXXXX1100', '-8.40', 'USD')).toBe('Sunrise Bakery');
    expect(nameOf('CHECKCARD 0402 TWIN OAKS TAVERN LEES SUMMIT MO 24431066092100012345678', '-33.00', 'USD')).toBe('Twin Oaks Tavern');
    // A short word after the trade's word is its abbreviation, not a town; a phone number is no town either.
    expect(nameOf('CASA AZUL MEXICAN REST 816-5550101 MO', '-21.00', 'USD')).toBe('Casa Azul Mexican Rest');
  });

  it("credit unions' ACH company after CO:, a payment sent with its date, a possessive the bank spaced, a state after a payer", () => {
    expect(nameOf('Deposit ACH TYPE: PAYROLL ID: 9111111101 CO: RIVERSTONE MILLS', '1400.00', 'USD')).toBe('Riverstone Mills');
    // The company's field empty (the next label right after CO:): the name before TYPE:.
    expect(nameOf('ACH Deposit:  Deposit ACH CEDAR VALLEY FARMS TYPE: PAYROLL ID: 4410022118 DATA: DIRECT DEPOSIT CO: Entry Class Code: PPD', '1400.00', 'USD')).toBe('Cedar Valley Farms');
    expect(nameOf('PMNT SENT 0402 GRACE OKAFOR CA 24492157092740280000001', '-25.00', 'USD')).toBe('Grace Okafor');
    expect(nameOf('POS DEBIT MAMA ROSA S 0112 TULSA OK', '-19.00', 'USD')).toBe("Mama Rosa's");
    expect(nameOf('ACH CREDIT STATE OF KANSAS KS TAX REF', '212.00', 'USD')).toBe('State of Kansas');
  });

  it('trade and movement words seen on these lines: a creamery, gymnastics, auto parts, a Dutch cafetaria, a Danish cash withdrawal, a share draft, a Polish letting', () => {
    expect(of('DEBIT CARD PURCHASE HILLSIDE CREAMERY #12', '-7.50', 'USD').category?.detailed).toBe('FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK');
    expect(of('SQ *NORTHSTAR GYMNASTICS 612-5550190 MN', '-120.00', 'USD').category?.detailed).toBe('PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS');
    expect(of('DEBIT CARD PURCHASE O REILLY AUTO PARTS 3321', '-44.00', 'USD').category?.detailed).toBe('GENERAL_SERVICES_AUTOMOTIVE');
    expect(of('Cafetaria Het Hoekje Pasvolgnr: 002 03-04-2026 19:02 Transactie: 1A22C3 Term: HH0101', '-12.40').category?.detailed).toBe('FOOD_AND_DRINK_FAST_FOOD');
    expect(of('Kontanthævning Danske Bank Aarhus C', '-400.00', 'DKK')).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_OUT_WITHDRAWAL' } });
    expect(of('SHARE DRAFT #3301', '-60.00', 'USD')).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_OUT_OTHER_TRANSFER_OUT' } });
    expect(of('ST.ZLEC Nazwa i adres odbiorcy: PIOTR ZIELIŃSKI UL. POLNA 2 GNIEZNO Tytuł: WYNAJEM POKOJU MAJ', '-1100.00', 'PLN')).toMatchObject({ merchant: { name: 'Piotr Zieliński' }, category: { detailed: 'RENT_AND_UTILITIES_RENT' } });
  });

  it("more US cores' words before the name (POS Transaction, DBT PURCHASE, POS PURCHASE NON-PIN, Descriptive Deposit, a card's number), and mid-size US towns before the state", () => {
    expect(nameOf('POS Transaction BLUE HERON BOOKS 210 W 2ND ST HUTCHINSON KS', '-14.00', 'USD')).toBe('Blue Heron Books');
    expect(nameOf('DBT PURCHASE - 000481 MAPLE LEAF DINER TOLEDO OH', '-12.50', 'USD')).toBe('Maple Leaf Diner');
    expect(nameOf('POS PURCHASE NON-PIN RIVERTOWN OUTFITTERS 12 DUBUQUE IA', '-64.00', 'USD')).toBe('Rivertown Outfitters');
    expect(nameOf('Withdrawal Debit Card Card #5521 COPPER KETTLE KALAMAZOO MI', '-18.00', 'USD')).toBe('Copper Kettle');
    expect(nameOf('Descriptive Deposit PAYROLL - PRAIRIE WIND ENERGY', '1500.00', 'USD')).toBe('Prairie Wind Energy');
  });

  it("Spanish, Danish, Dutch and UK words around a name read from probes of those banks' wording", () => {
    expect(nameOf('PAGO CON TARJETA EN TABERNA EL SUR MADRID', '-23.00')).toBe('Taberna El Sur');
    expect(nameOf('COMPRA TARJETA 4B CERVECERIA LA ROSA SEVILLA ES', '-15.00')).toBe('Cerveceria la Rosa');
    expect(nameOf('TRANSFERENCIA RECIBIDA DE MARTA SOLER VIDAL', '50.00')).toBe('Marta Soler Vidal');
    expect(of('Lønoverførsel Grundfos Holding', '28000.00', 'DKK')).toMatchObject({ merchant: { name: 'Grundfos Holding' }, category: { detailed: 'INCOME_WAGES' } });
    expect(nameOf('Betaalautomaat 18:02 pasnr. 011 Slagerij Hendriks Zwolle', '-21.00')).toBe('Slagerij Hendriks');
    expect(nameOf('TOM WALKER              FP 14/04/26 0930 998877665544332', '-40.00', 'GBP')).toBe('Tom Walker');
  });

  it("Bank of America's wires name their party, its card bill and a counter credit name no one", () => {
    expect(nameOf('Wire Type:Wire IN date: 20260402 time:1010 et trn:2026040200111111 Seq:111111/111111 Orig:HARBOR LIGHT LLC ID:123456789 Snd Bk:CITIBANK NA', '2500.00', 'USD')).toBe('Harbor Light');
    expect(nameOf('Wire Type:Wire OUT date:20260402 time:0932 et trn:2026040200222222 Service Ref:004411 Bnf:OAKRIDGE TITLE COMPANY ID:987654321 Bnf Bk:US BANK', '-9000.00', 'USD')).toBe('Oakridge Title Company');
    expect(of('Online Banking payment to CRD 4410 Confirmation# 3345678901', '-250.00', 'USD')).toMatchObject({ merchant: null, category: { detailed: 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT' } });
    expect(of('Counter Credit', '300.00', 'USD')).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_IN_DEPOSIT' } });
  });

  it("a town the card network cut at its field's length goes, a retail arm's or an insurer's word ends the name, a credit union's move to a share is savings", () => {
    expect(nameOf('TST* Lotus Noodle Bar Colorado Sprin CO           04/02', '-26.00', 'USD')).toBe('Lotus Noodle Bar');
    expect(nameOf('CARD PAYMENT TO HOMEBASE RETAIL LTD ON 02-04-2026', '-30.00', 'GBP')).toBe('Homebase');
    expect(nameOf('Betalingsservice CODAN FORSIKRING', '-900.00', 'DKK')).toBe('Codan');
    expect(of('Withdrawal Transfer To Share 09', '-100.00', 'USD')).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_OUT_SAVINGS' } });
  });

  it("US banks' words found by probing: a town glued to a full name field, Point of Sale Debit with its terminal and date, POS PUR-, an electronic withdrawal, and moves that name no one", () => {
    expect(nameOf('DEBIT PURCHASE -VISA SQ *CEDAR & SAGE BAKESEATTLE WA', '-9.00', 'USD')).toBe('Cedar & Sage Bake');
    expect(nameOf('Point of Sale Debit L512 DATE 04-20 RIVERSIDE BOWL TACOMA WA', '-22.00', 'USD')).toBe('Riverside Bowl');
    expect(nameOf('POS PUR- HILLTOP HARDWARE DUBUQUE IA', '-15.00', 'USD')).toBe('Hilltop Hardware');
    expect(nameOf('ELECTRONIC WITHDRAWAL VALLEY ELECTRIC COOP 0123456789', '-80.00', 'USD')).toBe('Valley Electric Coop');
    expect(of('INTERNET TRANSFER TO ACCOUNT 44551122', '-100.00', 'USD')).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_OUT_ACCOUNT_TRANSFER' } });
    expect(of('EDEPOSIT IN BRANCH/STORE 04/21/26 10:12:34 AM 9 OAK ST TACOMA WA 5521', '120.00', 'USD')).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_IN_DEPOSIT' } });
  });

  it("Polish transfers' party after its label (Od:, do:), its written-out legal form, a given name that is also a month's, Danish Lønoverførsel alone, Spanish PAGO BIZUM A", () => {
    expect(of('Przelew przychodzący WYNAGRODZENIE ZA 04/2026 Od: LEŚNIK SPÓŁKA Z O.O.', '4800.00', 'PLN')).toMatchObject({ merchant: { name: 'Leśnik' }, category: { detailed: 'INCOME_WAGES' } });
    expect(nameOf('Przelew wychodzący do: Jan Nowicki Tytuł: za bilety', '-80.00', 'PLN')).toBe('Jan Nowicki');
    expect(nameOf('Online ACH payment to Marco Ferri', '-45.00', 'USD')).toBe('Marco Ferri');
    // A month after a purpose word stays a month.
    expect(nameOf('Salary Jan 2026 Brightside Ltd', '900.00', 'GBP')).toBe('Brightside');
    expect(of('Lønoverførsel', '25000.00', 'DKK').merchant).toBeNull();
    expect(nameOf('PAGO BIZUM A NURIA CASTRO', '-12.00')).toBe('Nuria Castro');
  });

  it("Amex's AplPay and Danish card and bill words found by probing (MC/Visa køb, Mastercard køb, Betaling, Bgs), and Danish interest or property tax words naming no one", () => {
    expect(nameOf('AplPay RIVERSIDE NOODLE NEW YORK NY', '-18.00', 'USD')).toBe('Riverside Noodle');
    expect(nameOf('MC/Visa køb Cykelhuset Odense', '-499.00', 'DKK')).toBe('Cykelhuset');
    expect(nameOf('Mastercard køb DKK 64,00 Kaffeslottet Den 05.04', '-64.00', 'DKK')).toBe('Kaffeslottet');
    expect(nameOf('Betaling Odense Kommune Ejendomsskat', '-3200.00', 'DKK')).toBe('Odense Kommune');
    expect(nameOf('Bgs VANDCENTER SYD', '-410.00', 'DKK')).toBe('Vandcenter Syd');
    expect(of('Renter', '-12.00', 'DKK').merchant).toBeNull();
  });

  it("ING's card details after the shop's town go with it (Pasvolgnr), and a Dutch title before a person (Dhr., Mevr.)", () => {
    expect(nameOf('Slagerij Jansen Amersfoort NLD Pasvolgnr: 001 02-04-2026 09:15 Transactie: 1A2B3C Term: 1234 Apple Pay', '-14.00')).toBe('Slagerij Jansen');
    expect(nameOf('/TRTP/SEPA OVERBOEKING/IBAN/NL12ABNA0123456789/BIC/ABNANL2A/NAME/Dhr P Visser/REMI/Cadeau/EREF/NOTPROVIDED', '-25.00')).toBe('P Visser');
  });

  it("NatWest's spaced-comma fields (the card and day, then the name), its DDR and BAC codes, and UK banks' own cash machines", () => {
    expect(nameOf('4417 05APR26 C , THE GREEN KITCHEN , BATH GB', '-12.00', 'GBP')).toBe('The Green Kitchen');
    expect(nameOf('CALL REF.NO. 5521 , R PATEL , FP 05/04/26 1010 , 500000000099887766', '-60.00', 'GBP')).toBe('R Patel');
    expect(nameOf('SEVERN VALE HOUSING , 55120044 , DDR', '-420.00', 'GBP')).toBe('Severn Vale Housing');
    expect(nameOf('RIVERSIDE VETS LTD , SALARY , BAC', '1900.00', 'GBP')).toBe('Riverside Vets');
    expect(of('CASH NATWEST APR05 @10:02 , 1180 YORK', '-40.00', 'GBP')).toMatchObject({ merchant: null, category: { detailed: 'TRANSFER_OUT_WITHDRAWAL' } });
  });

  it("more Spanish banks' words found by probing (CARGO POR COMPRA TARJETA … EN, ABONO NOMINA, TRANSFERENCIA INMEDIATA RECIBIDA DE) and their card bill", () => {
    expect(nameOf('CARGO POR COMPRA TARJETA 5521 EN MESON EL CID, BURGOS', '-24.00')).toBe('Meson El Cid');
    expect(of('ABONO NOMINA TALLERES NORTE SL', '1650.00')).toMatchObject({ merchant: { name: 'Talleres Norte' }, category: { detailed: 'INCOME_WAGES' } });
    expect(nameOf('TRANSFERENCIA INMEDIATA RECIBIDA DE ELENA GIL', '40.00')).toBe('Elena Gil');
    expect(of('PAGO TARJETA CREDITO', '-310.00')).toMatchObject({ merchant: null, category: { detailed: 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT' } });
  });

  it("French instant transfers (VIR INST EMIS VERS) and Crédit Mutuel's card lines (FACTURE CARTE DU ddmmyy … CARTE 4974XXXXXXXX1234) found by probing", () => {
    expect(nameOf('VIR INST EMIS VERS M LEROY PAUL', '-30.00')).toBe('Paul Leroy');
    expect(nameOf('FACTURE CARTE DU 050426 LIBRAIRIE DES ARCADES CARTE 4974XXXXXXXX5521', '-17.90')).toBe('Librairie des Arcades');
  });
});

