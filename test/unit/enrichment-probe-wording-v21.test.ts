import { describe, expect, it } from 'vitest';
import { nameAndDetailed as both, detailedOfLine as detailedOf, enrichLine, nameOfLine as nameOf } from '../support/enrichment.ts';

/**
 * What version 21 reads that probes written after version 20 (US SimpleFIN lines; Finnish and Dutch; Italian, Portuguese,
 * Spanish, Norwegian, Danish and Irish) showed missing, each on a line written here, none taken from a probe or an
 * evaluation file (docs/decisions/enrichment-evaluation.md).
 */
describe('US lines', () => {
  it('completes an ACH company name cut at its 16 characters from the one directory spelling it starts', () => {
    expect(both(enrichLine('ST JUDE CHILDREN DES:DONATION ID:0042 INDN:MARTA LOPEZ CO ID:1620646038 WEB', '-25.00', 'USD'))).toEqual(["St. Jude Children's Research Hospital", 'GOVERNMENT_AND_NON_PROFIT_DONATIONS']);
    expect(nameOf('ST JUDE CHILDREN MONTHLY GIFT PPD ID: 1620646038', '-25.00', 'USD')).toBe("St. Jude Children's Research Hospital");
    // Not an ACH line: the name is not a field's.
    expect(nameOf('ST JUDE CHILDREN MONTHLY GIFT', '-25.00', 'USD')).not.toBe("St. Jude Children's Research Hospital");
  });

  it('reads a name’s abbreviation at its end, not a country’s code (CH after BAPTIST is Church, not Switzerland)', () => {
    expect(nameOf('GRACE BAPTIST CH DES:GIVING ID:88 INDN:ANN LEE CO ID:5 WEB', '-40.00', 'USD')).toBe('Grace Baptist Church');
  });

  it('keeps a word names end with where OFX cut the line, no cut town (CENTER is no Centerville)', () => {
    expect(nameOf('OAK HOLLOW KIDS LEARNING CENTER', '-210.00', 'USD')).toBe('Oak Hollow Kids Learning Center');
  });

  it('reads a chain’s word inside a local learning centre’s name as the centre’s', () => {
    expect(both(enrichLine('WREN SPROUTS LEARNING', '-180.00', 'USD'))).toEqual(['Wren Sprouts Learning', 'GENERAL_SERVICES_EDUCATION']);
  });

  it('drops Shopify’s SP prefix before a shop, and keeps SP Plus the parking operator', () => {
    expect(nameOf('SP MAPLE AND THREAD', '-48.00', 'USD')).toBe('Maple and Thread');
    expect(nameOf('SP PLUS PARKING 5512 DENVER CO', '-14.00', 'USD')).toBe('SP+');
  });

  it('drops Eventbrite’s prefix and a card terminal’s number glued to POS', () => {
    expect(nameOf('EB *HARBOR FOLK FESTIVAL 801-4138080 CA', '-35.00', 'USD')).toBe('Harbor Folk Festival');
    expect(nameOf('POS PURCHASE POS77120 3321 MARIAS PUPUSERIA HOUSTON TX', '-17.00', 'USD')).toBe('Marias Pupuseria');
  });

  it('reads the method words of Zelle’s business payments, a recurring card payment, a POS withdrawal and a PIN purchase', () => {
    expect(nameOf('ZELLE BUSINESS PAYMENT TO BLUE RIDGE GUTTERS PAYMENT ID 5521', '-180.00', 'USD')).toBe('Blue Ridge Gutters');
    expect(nameOf('RECURRING DEBIT CARD IRON OAK CROSSFIT 555-0102 OH', '-120.00', 'USD')).toBe('Iron Oak Crossfit');
    expect(nameOf('RECURRING DEBIT CARD PURCHASE AT STAR BRIGHT ACADEMY, 555-0103, OH', '-300.00', 'USD')).toBe('Star Bright Academy');
    expect(nameOf('POS W/D CEDAR FALLS DENTAL 03/11 10:02 WATERLOO IA', '-95.00', 'USD')).toBe('Cedar Falls Dental');
    expect(nameOf('POS PURCHASE-PIN 03/11 RIVERSIDE LIQUOR MART TOLEDO OH', '-23.00', 'USD')).toBe('Riverside Liquor Mart');
  });

  it('writes out the abbreviations a biller’s field uses after their words, and the words a cut name ends with', () => {
    expect(nameOf('ACH DEBIT MILL CREEK SEWER AUTH PAYMENT 0042', '-61.00', 'USD')).toBe('Mill Creek Sewer Authority');
    expect(nameOf('Paid To - HARBORVIEW PROPERTY MG RENT', '-1300.00', 'USD')).toBe('Harborview Property Management');
    expect(both(enrichLine('DIRECT WITHDRAWAL, GRANGE MUTUAL INS PREMIUM', '-90.00', 'USD'))).toEqual(['Grange Mutual Insurance', 'GENERAL_SERVICES_INSURANCE']);
    expect(nameOf('SUMTER ELEC BANK DRAFT 0042', '-130.00', 'USD')).toBe('Sumter Electric');
    expect(nameOf('RECURRING PAYMENT AUTHORIZED ON 03/01 MOSAIC ART COLLECTI 555-0104 VT CARD 1187', '-60.00', 'USD')).toBe('Mosaic Art Collective');
    expect(nameOf('ELECTRONIC WITHDRAWAL VALLEY FARM PROPA 031524', '-240.00', 'USD')).toBe('Valley Farm Propane');
  });

  it('reads an electric membership corporation, a tax preparer and an insurance premium', () => {
    expect(detailedOf('ACH CORP DEBIT BILLPAY OCONEE EMC', '-150.00', 'USD')).toBe('RENT_AND_UTILITIES_GAS_AND_ELECTRICITY');
    expect(both(enrichLine('DEBIT CARD PURCHASE - LUBBOCK TAX SERVICE LUBBOCK TX', '-150.00', 'USD'))).toEqual(['Lubbock Tax Service', 'GENERAL_SERVICES_ACCOUNTING_AND_FINANCIAL_PLANNING']);
  });
});

describe('US lines, a second probe round (OFX, Plaid)', () => {
  it('writes out a county’s office (CO before CLERK, TREAS after CO), a church cut short, a bank after STATE and medicine after FAMILY', () => {
    expect(both(enrichLine('POS DEBIT 0402 DALLAS CO CLERK', '-30.00', 'USD'))).toEqual(['Dallas County Clerk', 'GOVERNMENT_AND_NON_PROFIT_GOVERNMENT_DEPARTMENTS_AND_AGENCIES']);
    expect(both(enrichLine('WARREN CO TREAS', '-900.00', 'USD'))).toEqual(['Warren County Treasurer', 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT']);
    expect(nameOf('HOPE LUTHERAN C DES:ONLINE GIV ID:XXXXX12 INDN:AMY FOX CO ID:XXXXX99 WEB', '-40.00', 'USD')).toBe('Hope Lutheran Church');
    expect(nameOf('PRAIRIE STATE BA MTG PYMT 240301', '-900.00', 'USD')).toBe('Prairie State Bank');
    expect(nameOf('INSTAMED*BLUFFS FAMILY MED', '-30.00', 'USD', { mcc: '8011' })).toBe('Bluffs Family Medicine');
  });

  it('reads Chase’s originator cut by OFX with its next label’s start, and drops a name written again together', () => {
    expect(nameOf('ORIG CO NAME:PINE VALLEY ROWING ORI', '-90.00', 'USD')).toBe('Pine Valley Rowing');
    expect(nameOf('SP OAKMOSS APOTHECARY OAKMOSSAPO', '-22.00', 'USD')).toBe('Oakmoss Apothecary');
    // A last word that only starts like the first is another word, not the name again.
    expect(enrichLine('PENSIONSMYNDIGHETEN ALLMÄN PENSION', '900.00', 'SEK').cleanDescription).toBe('PENSIONSMYNDIGHETEN ALLMÄN PENSION');
  });

  it('drops the gym billing and law payment processors’ prefixes, a professional corporation’s PC and a premium’s words', () => {
    expect(nameOf('ABC*FORGE STRENGTH CLUB 888-8279262 TN', '-45.00', 'USD')).toBe('Forge Strength Club');
    expect(nameOf('LAWPAY *MORALES LAW GROUP 866', '-500.00', 'USD')).toBe('Morales Law Group');
    expect(nameOf('CEDAR PARK PEDIATRICS PC', '-60.00', 'USD')).toBe('Cedar Park Pediatrics');
    expect(nameOf('PIONEER MUTUAL INS PREM 031524 POL#PM88 CCD', '-110.00', 'USD')).toBe('Pioneer Mutual Insurance');
  });

  it('completes a broadband provider’s and a bed and breakfast’s cut names, a barn written together, and reads a car payment', () => {
    expect(nameOf('RIVER ROAD BED AND BREAKFAS', '-160.00', 'USD', { mcc: '7011' })).toBe('River Road Bed and Breakfast');
    expect(nameOf('PAYPAL *PAINTEDBARN 4029357733 WI', '-30.00', 'USD')).toBe('Painted Barn');
    expect(detailedOf('EASTSIDE AUTO SALES CAR PMT 240301 0042', '-300.00', 'USD')).toBe('LOAN_PAYMENTS_CAR_PAYMENT');
  });
});

describe('a second probe round: US regional banks and credit unions, US chains and locals, five European countries', () => {
  it('keeps initials in capitals, and completes a lounge, a disposal company and a taphouse cut short', () => {
    expect(nameOf('PREAUTHORIZED CREDIT J E MORALES ROOFING PAYROLL 031524', '2000.00', 'USD')).toBe('J E Morales Roofing');
    expect(nameOf('SQ *VELVET NAIL LOUNG', '-40.00', 'USD')).toBe('Velvet Nail Lounge');
    expect(nameOf('TOAST*THE RUSTY ANCHOR TAPHOU', '-40.00', 'USD')).toBe('The Rusty Anchor Taphouse');
  });

  it('drops an ACH company name’s cut last word when the entry’s description writes it whole, and a property tax’s word', () => {
    expect(nameOf('ELECTRONIC WITHDRAWAL HILLTOP ORCHA ORCHARDS 031524', '-80.00', 'USD')).toBe('Hilltop Orchards');
    expect(nameOf('Withdrawal from ADAMS CO TREAS PROPTAX', '-900.00', 'USD')).toBe('Adams County Treasurer');
  });

  it('reads a tax collector, a medical center, a fellowship’s church and an offertory', () => {
    expect(both(enrichLine('ACH DEBIT POLK COUNTY TAX COLL 0412', '-900.00', 'USD'))).toEqual(['Polk County Tax Collector', 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT']);
    expect(nameOf('CHECKCARD 0402 HARMON TAX SERVICE', '-150.00', 'USD')).toBe('Harmon Tax Service');
    expect(nameOf('VALLEY REGIONAL MED CTR PATIENT PMT 8812', '-80.00', 'USD')).toBe('Valley Regional Medical Center');
    expect(nameOf('ACH DEBIT NEW LIFE FELLOWSHIP CH WEB ONLINE GIVING', '-50.00', 'USD')).toBe('New Life Fellowship Church');
    expect(detailedOf('ST ANNE PARISH OFFERTORY WEB 0215', '-20.00', 'USD')).toBe('GOVERNMENT_AND_NON_PROFIT_DONATIONS');
  });

  it('reads method words before the shop and a card’s memo after it on US lines', () => {
    expect(nameOf('PIN PURCHASE ROXY THEATRE 12 MAIN ST', '-20.00', 'USD')).toBe('Roxy Theatre');
    expect(nameOf('RECURRING PURCHASE PAYPAL *SUNNYSIDELAWN 4029357733 GA', '-60.00', 'USD')).toBe('Sunnyside Lawn');
    expect(nameOf('DEBIT CARD PUR PAYPAL *TIGERKARATE 4029357733 AR', '-90.00', 'USD')).toBe('Tiger Karate');
    expect(nameOf('RETURN CREDIT WILLOW LANE BOUTIQUE', '30.00', 'USD')).toBe('Willow Lane Boutique');
    expect(nameOf('HILLTOP BARBERSHOP DEBIT CARD 5512 04/02', '-30.00', 'USD')).toBe('Hilltop Barbershop');
    expect(nameOf('ROSAS TORTILLERIA POS DEBIT 04/02 EL PASO TX', '-10.00', 'USD')).toBe('Rosas Tortilleria');
  });

  it('reads feed stores, heating and air, lawn care, meat markets, karate, an excise and a sanitary district', () => {
    expect(detailedOf('POS Withdrawal CEDAR CREEK FEED & SUPPLY AUSTIN TX', '-40.00', 'USD')).toBe('GENERAL_MERCHANDISE_PET_SUPPLIES');
    expect(detailedOf('IN *COMFORT HEATING & AIR OLATHE KS', '-200.00', 'USD')).toBe('HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE');
    expect(detailedOf('CLV*EL RANCHO MEAT MKT HOUSTON TX', '-30.00', 'USD')).toBe('FOOD_AND_DRINK_GROCERIES');
    expect(both(enrichLine('Debit Card Purchase TOWN OF MILFORD NH EXCISE 603-5550100', '-60.00', 'USD'))).toEqual(['Town of Milford', 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT']);
    expect(detailedOf('EXTERNAL WITHDRAWAL METRO SANITARY DIST - BILLPAY', '-60.00', 'USD')).toBe('RENT_AND_UTILITIES_SEWAGE_AND_WASTE_MANAGEMENT');
  });

  it('reads a debit card’s cash-back reward as income from no one, and an online bank’s vault and round-ups as savings', () => {
    expect(both(enrichLine('CASHBACK DEBIT REWARD', '3.10', 'USD'))).toEqual([null, 'INCOME_OTHER_INCOME']);
    expect(detailedOf('Transfer to Vault Emergency', '-40.00', 'USD')).toBe('TRANSFER_OUT_SAVINGS');
    expect(detailedOf('Roundups transfer to Vault Trip', '-2.10', 'USD')).toBe('TRANSFER_OUT_SAVINGS');
  });

  it('reads the shop in the description where a Dutch line’s name field is a payment provider’s alone', () => {
    expect(nameOf('Naam: Stichting Mollie Payments Omschrijving: M5012233 0020 Kaaswinkel De Gouden Bol bestelling 2041 IBAN: NL41DEUT0265262461 Kenmerk: 02-04-2025 20:17', '-20.00')).toBe('Kaaswinkel De Gouden Bol');
    expect(nameOf('/TRTP/iDEAL/IBAN/NL32INGB0006471922/BIC/INGBNL2A/NAME/Stichting Derdengelden Buckaroo/REMI/1000248812 0030018827763 Zeilschool De Wind cursus/EREF/02-04-2025 11:02', '-300.00')).toBe('Zeilschool De Wind');
    // A shop "via" its provider is named in the field.
    expect(enrichLine('Naam: Bakkerij Joop via Stichting Mollie Payments Omschrijving: Bestelling 2041 IBAN: NL30ABNA0524590958', '-12.00').cleanDescription).toBe('Bakkerij Joop via Stichting Mollie Payments');
    expect(nameOf('Naam: AAB INZ TIKKIE Omschrijving: Tikkie ID 000913377204, Etentje vrijdag, Sanne Visser, NL08RABO0361122334 IBAN: NL46ABNA0507779000 Kenmerk: 02-04-2025 10:05', '-25.00', 'EUR', { counterpartyName: 'AAB INZ TIKKIE' })).toBe('Sanne Visser');
  });

  it('reads Belgian and Dutch card lines with the card and its holder after the shop, and Finnish and Italian wordings', () => {
    expect(nameOf('Betaling via Bancontact 02/04 11:42 Bakkerij Goossens Mechelen kaart 6703 04** **** *123 4 Peeters Jan', '-6.00')).toBe('Bakkerij Goossens');
    expect(nameOf('Betaling Maestro 02/04/2025 Bloemen Nele 3500 Hasselt Kaart 6703 XXXX XXXX 3377', '-15.00')).toBe('Bloemen Nele');
    expect(nameOf('Pinbetaling Fietsenmaker Jansen ZWOLLE 02-04-2025 09:15 Pas 003 Terminal 71204588', '-25.00')).toBe('Fietsenmaker Jansen');
    expect(nameOf('PKORTTIMAKSU KAHVILA AALTO JYVÄSKYLÄ 02.04 1327', '-5.00')).toBe('Kahvila Aalto');
    expect(nameOf('PAGAMENTO POS 5,50 EUR DEL 02.04.2025 ORE 07:48 PRESSO TABACCHERIA RUSSO RIV. 12 BARI CARTA *5512', '-5.50')).toBe('Tabaccheria Russo');
    expect(both(enrichLine('ACQUISTO CARTA DI CREDITO 02/04/2025 AGRITURISMO LE VIGNE', '-180.00', 'EUR', { mcc: '7011' }))).toEqual(['Agriturismo le Vigne', 'TRAVEL_LODGING']);
    expect(nameOf('BONIFICO SEPA A: ELETTRICISTA BIANCHI DI BIANCHI MARCO CAUSALE: FATT. 12/2025', '-300.00', 'EUR', { counterpartyName: 'ELETTRICISTA BIANCHI DI BIANCHI MARCO' })).toBe('Elettricista Bianchi');
    expect(nameOf('ADDEBITO SDD CORE Creditore: PALESTRA ATLAS SSD ARL Rif: ABBONAMENTO', '-45.00', 'EUR', { counterpartyName: 'PALESTRA ATLAS SSD ARL' })).toBe('Palestra Atlas');
    expect(nameOf('Pagamento Carta di debito CHF 20,00 al cambio 0,963420 CONFISERIE MEIER LUGANO CHE', '-20.80')).toBe('Confiserie Meier');
    expect(nameOf('PAGAMENTO SATISPAY 02/04 PASTICCERIA DOLCE VITA', '-4.00', 'EUR', { counterpartyName: 'SATISPAY EUROPE S.A.' })).toBe('Pasticceria Dolce Vita');
    expect(both(enrichLine('PALVELUMAKSUT 03/2025', '-4.90'))).toEqual([null, 'BANK_FEES_OTHER_BANK_FEES']);
  });
});

describe('a third probe round: US big banks, the south and the Baltics, the north and west', () => {
  it('reads Bank of America’s card tail, an LLC cut to LL, an online bill payment, a property insurer and a yoga studio written together', () => {
    expect(nameOf('CHECKCARD 0402 TST* CASA LUNA CANTINA RALEIGH NC 24492155073000128374651 CKCD 5812 XXXXXXXXXXXX5512 XXXX XXXX 5512', '-40.00', 'USD')).toBe('Casa Luna Cantina');
    expect(nameOf('IN *CAROLINA GUTTER PROS LL 704-5550143 NC', '-150.00', 'USD')).toBe('Carolina Gutter Pros');
    expect(nameOf('ONLINE BILL PAY ST PIUS SCHOOL 000125', '-400.00', 'USD')).toBe('St Pius School');
    expect(detailedOf('ACH Electronic Debit - COASTAL PROP INS PAYMENT', '-200.00', 'USD')).toBe('GENERAL_SERVICES_INSURANCE');
    expect(nameOf('PAYPAL *LOTUSYOGA 402-935-7733 CA', '-20.00', 'USD')).toBe('Lotus Yoga');
    expect(nameOf('ACH CREDIT TRS ANNUITY 031425', '1900.00', 'USD')).toBe('TRS');
  });

  it('drops exchange notes in five languages after a card paid abroad', () => {
    expect(nameOf('COMPRA 6012 HOSPODA U ZLATEHO PRAHA CZ VALOR 250,00 CZK TX CAMBIO 25,1120', '-10.00')).toBe('Hospoda U Zlateho');
    expect(nameOf('COMPRA TARJ. 9981 THE KINGS ARMS LONDON GB 20,00 GBP TIPO CAMBIO 1,1712', '-23.40')).toBe('The Kings Arms');
    expect(nameOf('PAGAMENTO CARTA *5512 DEL 02/04/25 ORE 20.41 OSTERIA TICINESE LUGANO CHE IMP. VALUTA 60,00 CHF CAMBIO 0,9712', '-61.80')).toBe('Osteria Ticinese');
    expect(nameOf('Kortelė ...5512 2025-04-02 BAR MLECZNY POD LIPAMI KRAKOW POL 40,00 PLN, kursas 4,3121', '-9.30')).toBe('Bar Mleczny Pod Lipami');
  });

  it('reads Iberian and Lithuanian card wordings, an authorisation number, an Italian sports association and orders through payment providers', () => {
    expect(nameOf('COMPRA ELECTRONICA 5512 DROGARIA SAO JOAO PORTO', '-9.00')).toBe('Drogaria Sao Joao');
    expect(nameOf('PAG SERV ENT 21311 REF 123456789 ESCOLA DE MUSICA ALEGRO', '-60.00')).toBe('Escola de Musica Alegro');
    expect(nameOf('PAGO TARJETA DEBITO MESON EL CRUCE 02/04 BURGOS TERM. 00071234', '-30.00')).toBe('Meson El Cruce');
    expect(nameOf('Pirkimas kortele 4*** 5512 2025-04-02 KAVINE PUODELIS KAUNAS', '-6.00')).toBe('Kavine Puodelis');
    expect(nameOf('COMPRA TARJ. 4110XXXXXXXX5512 PAPELERIA LA PLUMA-SABADELL AUT. 482913', '-8.00')).toBe('Papeleria la Pluma');
    expect(nameOf('ADDEBITO DIRETTO SDD QUOTA APRILE', '-50.00', 'EUR', { counterpartyName: 'A.S.D. TENNIS CLUB VILLA' })).toBe('Tennis Club Villa');
    expect(nameOf('Pasūtījums Nr. 5521 Keramikas Darbnīca', '-30.00', 'EUR', { counterpartyName: 'MAKSEKESKUS AS' })).toBe('Keramikas Darbnīca');
    expect(nameOf('Tellimus 20250402-11 Talu Juustukoda', '-20.00', 'EUR', { counterpartyName: 'MONTONIO FINANCE UAB' })).toBe('Talu Juustukoda');
  });

  it('reads Baltic fees, interest and an ATM’s commission, and a Danish and Swedish cooperative’s form', () => {
    expect(detailedOf('Mėnesinis sąskaitos aptarnavimo mokestis', '-1.90')).toBe('BANK_FEES_OTHER_BANK_FEES');
    expect(both(enrichLine('Arvelduslaenu intress 04/2025', '-3.10'))).toEqual([null, 'BANK_FEES_INTEREST_CHARGE']);
    expect(detailedOf('Komisija par skaidras naudas izņemšanu citas bankas bankomātā', '-1.50')).toBe('BANK_FEES_ATM_FEES');
    expect(nameOf('BS Vandafregning 2. kvt', '-800.00', 'DKK', { counterpartyName: 'SKØRPING VANDVÆRK A.M.B.A.' })).toBe('Skørping Vandværk');
    expect(nameOf('Autogiro', '-900.00', 'SEK', { counterpartyName: 'HALLANDS KRAFT EK FÖR' })).toBe('Hallands Kraft');
  });

  it('reads a Danish owner after v/, Norway’s BankAxept, a Finnish bank card’s purchase and a Finnish housing company', () => {
    expect(nameOf('MobilePay Frisør Saksen', '-300.00', 'DKK', { counterpartyName: 'FRISØR SAKSEN V/ANNE HOLM' })).toBe('Frisør Saksen');
    expect(nameOf('VAREKJØP 02.04 FJORDHEIM BAKERI BankAxept', '-60.00', 'NOK')).toBe('Fjordheim Bakeri');
    expect(nameOf('Pankkikortti osto 02.04 KUKKAKAUPPA VALKOVUOKKO', '-25.00')).toBe('Kukkakauppa Valkovuokko');
    expect(nameOf('E-LASKU Vastike 04/2025', '-400.00', 'EUR', { counterpartyName: 'ASUNTO OY HAAPALEHTO' })).toBe('Asunto Oy Haapalehto');
  });
});

describe('Nordic and Dutch lines', () => {
  it('drops Finnish legal forms (Ky, Tmi, ry) and a mutual insurer’s', () => {
    expect(nameOf('KORTTIOSTO PUUSEPÄNLIIKE HAAPALA KY LAHTI', '-80.00')).toBe('Puusepänliike Haapala');
    expect(nameOf('E-LASKU Vakuutus erä 1/2', '-60.00', 'EUR', { counterpartyName: 'KALEVA KESKINÄINEN VAKUUTUSYHTIÖ' })).toBe('Kaleva');
    expect(nameOf('TILISIIRTO Jäsenmaksu 2025', '-90.00', 'EUR', { counterpartyName: 'HIIHTOSEURA LATU RY' })).toBe('Hiihtoseura Latu');
  });

  it('reads the shop in the text where a Finnish or Dutch payment service provider fills the bank’s field', () => {
    expect(nameOf('VERKKOMAKSU Kahvipaahtimo Kuksa tilaus 5521', '-24.00', 'EUR', { counterpartyName: 'PAYTRAIL OYJ' })).toBe('Kahvipaahtimo Kuksa');
    expect(nameOf('Bloemenhuis Zonnebloem ordernr 2025-0110 MSP-1200', '-30.00', 'EUR', { counterpartyName: 'MultiSafepay' })).toBe('Bloemenhuis Zonnebloem');
    expect(nameOf('Nota 8001234 Fysiotherapie Het Anker behandeling 02-03-2025', '-45.00', 'EUR', { counterpartyName: 'Infomedics' })).toBe('Fysiotherapie Het Anker');
  });

  it('reads Finnish card use, a card purchase’s refund and a withdrawal', () => {
    expect(nameOf('Kortinkäyttö KAHVILA MUSTIKKA OY 02.04.2025', '-6.00')).toBe('Kahvila Mustikka');
    expect(nameOf('KORTTIOSTON HYVITYS LANKAPUOTI SILMU TURKU', '19.00')).toBe('Lankapuoti Silmu');
    expect(both(enrichLine('NOSTO 020425 OTTO. 2210 TAMPERE HAMEENKATU', '-40.00'))).toEqual([null, 'TRANSFER_OUT_WITHDRAWAL']);
  });

  it('ends a Dutch card line’s shop at the mark before its town, and a name at an order or a subscription', () => {
    expect(nameOf('Snackbar De Molen >ZWOLLE 02.04.2025 18:02 pasnr 204', '-9.00')).toBe('Snackbar De Molen');
    expect(nameOf('Fietsenmaker Rijn Bestelling 5521', '-40.00', 'EUR', { counterpartyName: 'Stichting Mollie Payments' })).toBe('Fietsenmaker Rijn');
    expect(nameOf('Pilatesstudio Vorm Abonnement april 2025', '-55.00', 'EUR', { counterpartyName: 'Stichting Mollie Payments' })).toBe('Pilatesstudio Vorm');
    expect(nameOf('Aflossing studieschuld', '-80.00', 'EUR', { counterpartyName: 'DUO Hoofdvestiging' })).toBe('DUO');
  });

  it('knows the trades of yoga studios, sports clubs, bike shops, saunas, electricians, plumbers and ironmongers', () => {
    expect(detailedOf('Yogaschool Adem Abonnement', '-50.00')).toBe('PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS');
    expect(detailedOf('TILISIIRTO Jäsenmaksu', '-90.00', 'EUR', { counterpartyName: 'URHEILUSEURA KIRI RY' })).toBe('PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS');
    expect(detailedOf('KORTTIOSTO PYÖRÄLIIKE VAUHTI OULU', '-35.00')).toBe('GENERAL_MERCHANDISE_SPORTING_GOODS');
    expect(detailedOf('KORTTIOSTO SAUNA KUUMA ESPOO', '-12.00')).toBe('PERSONAL_CARE_OTHER_PERSONAL_CARE');
    expect(detailedOf('Viitesiirto lasku 55', '-200.00', 'EUR', { counterpartyName: 'SÄHKÖASENNUS LEHTONEN KY' })).toBe('HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE');
    expect(detailedOf('Factuur 2025-11', '-150.00', 'EUR', { counterpartyName: 'Loodgietersbedrijf Van Dam' })).toBe('HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE');
    expect(detailedOf('Overførsel til Holms VVS ApS Fakt. 55', '-900.00', 'DKK', { counterpartyName: 'HOLMS VVS APS' })).toBe('HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE');
    expect(detailedOf('eFaktura RØRLEGGER BERG AS Faktura 55', '-2000.00', 'NOK', { counterpartyName: 'RØRLEGGER BERG AS' })).toBe('HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE');
    expect(detailedOf('Visa/Dankort 02.04 JERNHANDLER BRØNS', '-60.00', 'DKK')).toBe('HOME_IMPROVEMENT_HARDWARE');
  });

  it('reads a Danish purchase abroad, a withdrawal at a machine, a collection and a childminder', () => {
    expect(nameOf('Købt hos OSTERIA DEL SOLE SIENA EUR 41,00 Kurs 7,4610', '-305.90', 'DKK')).toBe('Osteria del Sole');
    expect(both(enrichLine('Hævet i automat Jyske Bank Vejle 02.04.25 kl. 09.40', '-300.00', 'DKK'))).toEqual([null, 'TRANSFER_OUT_WITHDRAWAL']);
    expect(detailedOf('MobilePay Box Indsamling Spejderhytten', '-100.00', 'DKK', { counterpartyName: 'KFUM SPEJDERNE' })).toBe('GOVERNMENT_AND_NON_PROFIT_DONATIONS');
    expect(detailedOf('Overførsel til Lone Berg privat pasning april', '-3500.00', 'DKK', { counterpartyName: 'LONE BERG' })).toBe('GENERAL_SERVICES_CHILDCARE');
  });

  it('knows Swedish and Baltic trades: a konditori, a vet, a street kitchen, a music school, a window cleaner, a carpenter, a plumber', () => {
    expect(detailedOf('Kortköp 250402 STORA KONDITORIET', '-58.00', 'SEK')).toBe('FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK');
    expect(detailedOf('Kortköp 250402 DJURKLINIKEN TASSEN', '-900.00', 'SEK')).toBe('MEDICAL_VETERINARY_SERVICES');
    expect(detailedOf('Kortköp GATUKÖKET HÖRNAN LULEÅ', '-85.00', 'SEK')).toBe('FOOD_AND_DRINK_FAST_FOOD');
    expect(detailedOf('Swish 1234567890 gitarrlektioner', '-900.00', 'SEK', { counterpartyName: 'KULTURSKOLAN ACKORD HB' })).toBe('GENERAL_SERVICES_EDUCATION');
    expect(detailedOf('Swish 1234567890 april', '-500.00', 'SEK', { counterpartyName: 'BERGS FÖNSTERPUTS' })).toBe('HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE');
    expect(detailedOf('Pārskaitījums, rēķins Nr. 7, santehnikas darbi', '-70.00', 'EUR', { counterpartyName: 'IK "CAURULE"' })).toBe('HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE');
    expect(nameOf('Pārskaitījums, rēķins Nr. 7', '-70.00', 'EUR', { counterpartyName: 'IK "CAURULE"' })).toBe('Caurule');
  });

  it('reads a Latvian card purchase with its card’s mask, and Barclays’s contactless code after the shop', () => {
    expect(nameOf('Pirkums kartē 4*1187, 02.04.2025, KAFEJNICA LIEPA, CESIS, LV', '-7.00')).toBe('Kafejnica Liepa');
    expect(nameOf('THE SALT HOUSE ON 02 APR CLP', '-14.00', 'GBP')).toBe('The Salt House');
  });

  it('drops a Norwegian cooperative’s form (SA)', () => {
    expect(nameOf('AVTALEGIRO LØVETANN BARNEHAGE SA KID 0042', '-2000.00', 'NOK', { counterpartyName: 'LØVETANN BARNEHAGE SA' })).toBe('Løvetann Barnehage');
  });
});

describe('German, Austrian, Belgian and French lines', () => {
  it('drops a payment provider’s id and an order’s word before the shop the provider’s field stands for', () => {
    expect(nameOf('tr_Qa8Lm2Zx7K Bestelling 5521 Koffiebranderij De Boon', '-24.00', 'EUR', { counterpartyName: 'Mollie B.V.' })).toBe('Koffiebranderij De Boon');
    expect(nameOf('py_3QbYr7LkE2aZ9 Kletterhalle Nordwand', '-120.00', 'EUR', { counterpartyName: 'Stripe Payments Europe Ltd' })).toBe('Kletterhalle Nordwand');
    expect(nameOf('M20843215 0283472451 Bestellung 20481 Obsthof Wendler', '-30.00', 'EUR', { counterpartyName: 'Mollie B.V.' })).toBe('Obsthof Wendler');
  });

  it('reads Apple Pay’s and Bancontact’s wordings, a card’s words after the shop, and an Austrian sole trader’s form', () => {
    expect(nameOf('Apple Pay Zahlung 02.04.2025 16:40 SCHREIBWAREN HOLZER Debitkarte **** 5512 Terminal 0013', '-8.00')).toBe('Schreibwaren Holzer');
    expect(nameOf('TIERARZTPRAXIS DR. BRANDT Visa-Umsatz 02.04.2025 Kartennr. 4871 XXXX XXXX 5512', '-80.00')).toBe('Tierarztpraxis Dr. Brandt');
    expect(nameOf('Bancontact-aankoop - FRITUUR DE GOUDEN KROKET - 02/04/2025 19:12 - Kaartnummer 6703 XXXX XXXX 5512', '-14.00')).toBe('Frituur de Gouden Kroket');
    expect(nameOf('Service Rg. 2025-41', '-300.00', 'EUR', { counterpartyName: 'Kfz-Technik Huber e.U.' })).toBe('Kfz-Technik Huber');
  });

  it('knows childminders, tax advisers, notaries, plumbers, beekeepers, butchers and osteopaths', () => {
    expect(detailedOf('Betreuung April 2025', '-380.00', 'EUR', { counterpartyName: 'Tagesmutter Petra Wolf' })).toBe('GENERAL_SERVICES_CHILDCARE');
    expect(detailedOf('Honorarnote 25/0041', '-240.00', 'EUR', { counterpartyName: 'Mag. Karl Brunner Steuerberatung' })).toBe('GENERAL_SERVICES_ACCOUNTING_AND_FINANCIAL_PLANNING');
    expect(detailedOf('VIR SEPA EMIS /MOTIF PROVISION ACTE /BEN OFFICE NOTARIAL BLANC', '-900.00', 'EUR', { counterpartyName: 'OFFICE NOTARIAL BLANC' })).toBe('GENERAL_SERVICES_CONSULTING_AND_LEGAL');
    expect(detailedOf('VIR SEPA EMIS MOTIF: FACTURE 2025-41', '-150.00', 'EUR', { counterpartyName: 'EURL PLOMBERIE GIRARD' })).toBe('HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE');
    expect(detailedOf('Kartenzahlung IMKEREI HONIGTAU', '-12.00')).toBe('FOOD_AND_DRINK_GROCERIES');
    expect(detailedOf('Bezahlung Karte MC/000003192 FLEISCHHAUEREI GRUBER', '-23.00')).toBe('FOOD_AND_DRINK_GROCERIES');
    expect(detailedOf('PAIEMENT PAR CARTE X5512 SUMUP *OSTEO MARTIN LYON 02/04', '-60.00')).toBe('MEDICAL_OTHER_MEDICAL');
  });

  it('drops a Belgian card’s exchange note after a shop abroad', () => {
    expect(enrichLine('Betaling met debetkaart THE RED LION YORK GB 20,00 GBP wisselkoers 0,851 kosten 0,00 EUR 02-04-2025', '-23.50').cleanDescription).toBe('THE RED LION');
  });
});

describe('southern European lines', () => {
  it('reads Italian POS wordings, a commission note, a trade’s word before an article and a chain’s name', () => {
    expect(nameOf('ACQUISTO POS 02/04/25 CARTOLERIA ROSSI SNC DI ROSSI M. & C. LUCCA - CARTA *5512', '-9.00')).toBe('Cartoleria Rossi');
    expect(nameOf('PAG. POS BANCOMAT 02/04/2025 ORE 10.12 GELATERIA DEL CORSO RIMINI TERM. 00451234', '-5.00')).toBe('Gelateria del Corso');
    expect(nameOf('PAGAMENTO POS 18,00 CHF CONTROVALORE 19,20 EUR DEL 02.04.2025 CON CARTA ****5512 PRESSO PIZZERIA LA CANVA LUGANO CHE COMM. 1,00 EUR', '-20.20')).not.toBe('Canva');
    expect(detailedOf('Bonifico SEPA Ben: IDRAULICA BASSI Info Cli: FATTURA 12/2025', '-300.00', 'EUR', { counterpartyName: 'IDRAULICA BASSI' })).toBe('HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE');
  });

  it('names a condominium with its street and number, and drops an Italian transfer’s method words', () => {
    expect(both(enrichLine('BONIFICO SEPA DISPOSTO A FAVORE CONDOMINIO VIA GARIBALDI 12 CAUSALE RATA SPESE 1/4', '-250.00', 'EUR', { counterpartyName: 'CONDOMINIO VIA GARIBALDI 12' }))).toEqual(['Condominio Via Garibaldi 12', 'RENT_AND_UTILITIES_OTHER_UTILITIES']);
  });

  it('reads Portuguese and Spanish card wordings, a time in hours and minutes and an exchange note', () => {
    expect(nameOf('COMPRA 5512 CERVEJARIA DO LARGO BRAGA 02/04 20H15', '-22.00')).toBe('Cervejaria do Largo');
    expect(nameOf('COMPRA C/DEB 5512 DROGARIA CENTRAL FARO PT 02/04', '-8.00')).toBe('Drogaria Central');
    expect(nameOf('COMPRA 5512 THE OLD FORGE CAFE YORK GBR GBP 7,50 TX CAMBIO 0,8451 COM MOEDA ESTRANG 0,25', '-9.12')).toBe('The Old Forge Cafe');
    expect(nameOf('PAGO CON TARJETA ****5512 02/04/2025 13:10 BODEGA LOS ARCOS MALAGA ES', '-18.00')).toBe('Bodega Los Arcos');
    expect(nameOf('Pago en JOES DINER AUSTIN US 12,00 USD Cambio aplicado 1 EUR = 1,0800 USD', '-11.11')).toBe('Joes Diner');
    expect(nameOf('COMPRA TARJ. CREDITO 5540XXXXXXXX5512 LIBRERIA EL FARO-ALMERIA', '-14.00')).toBe('Libreria El Faro');
  });

  it('knows a Portuguese filling station, a Spanish study centre and a Portuguese donation', () => {
    expect(detailedOf('COMPRA 5512 POSTO ABAST SILVA & IRMAOS VISEU', '-45.00')).toBe('TRANSPORTATION_GAS');
    expect(detailedOf('ADEUDO RECIBO CENTRO DE ESTUDIOS ATENEA MENSUALIDAD', '-80.00', 'EUR', { counterpartyName: 'CENTRO DE ESTUDIOS ATENEA SL' })).toBe('GENERAL_SERVICES_EDUCATION');
    expect(detailedOf('TRF ONLINE P/ CENTRO SOCIAL PAROQUIAL DONATIVO NATAL', '-30.00')).toBe('GOVERNMENT_AND_NON_PROFIT_DONATIONS');
  });
});

describe('British lines', () => {
  it('drops HSBC’s VIS before the shop', () => {
    expect(nameOf('VIS THE LITTLE LARDER HEXHAM', '-7.00', 'GBP')).toBe('The Little Larder');
  });
});
