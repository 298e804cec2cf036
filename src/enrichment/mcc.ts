/**
 * ISO 18245 merchant category codes to Tributary's categories. The codes and their names are the
 * standard's, as the card networks publish them (Visa Merchant Data Standards Manual, Mastercard
 * Quick Reference Booklet); which category each goes to is Tributary's choice, written for this
 * table (Apache-2.0). Only common codes are listed: an unlisted code decides nothing.
 * Airline (3000–3350), car rental (3351–3500) and hotel (3501–3999) brand codes go by range.
 */
import { categoryOf, type Category } from './taxonomy.ts';

const CODES: Readonly<Record<string, string>> = {
  // Agriculture, contracted and professional services
  '0742': 'MEDICAL_VETERINARY_SERVICES', // Veterinary services
  '0780': 'HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE', // Landscaping and horticultural services
  '1520': 'HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE', // General contractors, residential and commercial
  '1711': 'HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE', // Heating, plumbing, air-conditioning contractors
  '1731': 'HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE', // Electrical contractors
  '1799': 'HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE', // Special trade contractors
  // Transportation
  '4011': 'TRANSPORTATION_PUBLIC_TRANSIT', // Railroads
  '4111': 'TRANSPORTATION_PUBLIC_TRANSIT', // Local and suburban commuter passenger transportation
  '4112': 'TRANSPORTATION_PUBLIC_TRANSIT', // Passenger railways
  '4121': 'TRANSPORTATION_TAXIS_AND_RIDE_SHARES', // Taxicabs and limousines
  '4131': 'TRANSPORTATION_PUBLIC_TRANSIT', // Bus lines
  '4214': 'GENERAL_SERVICES_POSTAGE_AND_SHIPPING', // Motor freight carriers, trucking, delivery
  '4215': 'GENERAL_SERVICES_POSTAGE_AND_SHIPPING', // Courier services
  '4225': 'GENERAL_SERVICES_STORAGE', // Public warehousing and storage
  '4411': 'TRAVEL_OTHER_TRAVEL', // Steamship and cruise lines
  '4511': 'TRAVEL_FLIGHTS', // Airlines and air carriers
  '4582': 'TRAVEL_FLIGHTS', // Airports, flying fields and terminals
  '4722': 'TRAVEL_OTHER_TRAVEL', // Travel agencies and tour operators
  '4784': 'TRANSPORTATION_TOLLS', // Tolls and bridge fees
  '4789': 'TRANSPORTATION_OTHER_TRANSPORTATION', // Transportation services, not elsewhere classified
  // Communications and utilities
  '4812': 'RENT_AND_UTILITIES_TELEPHONE', // Telecommunication equipment and telephone sales
  '4814': 'RENT_AND_UTILITIES_TELEPHONE', // Telecommunication services
  '4816': 'RENT_AND_UTILITIES_INTERNET_AND_CABLE', // Computer network and information services
  '4899': 'RENT_AND_UTILITIES_INTERNET_AND_CABLE', // Cable, satellite and other pay television and radio
  '4900': 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY', // Utilities: electric, gas, water, sanitary
  // Retail
  '5021': 'HOME_IMPROVEMENT_FURNITURE', // Office and commercial furniture
  '5200': 'HOME_IMPROVEMENT_HARDWARE', // Home supply warehouse stores
  '5211': 'HOME_IMPROVEMENT_HARDWARE', // Lumber and building materials stores
  '5251': 'HOME_IMPROVEMENT_HARDWARE', // Hardware stores
  '5261': 'HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE', // Nurseries and lawn and garden supply stores
  '5300': 'GENERAL_MERCHANDISE_SUPERSTORES', // Wholesale clubs
  '5309': 'GENERAL_MERCHANDISE_OTHER_GENERAL_MERCHANDISE', // Duty free stores
  '5310': 'GENERAL_MERCHANDISE_DISCOUNT_STORES', // Discount stores
  '5311': 'GENERAL_MERCHANDISE_DEPARTMENT_STORES', // Department stores
  '5331': 'GENERAL_MERCHANDISE_DISCOUNT_STORES', // Variety stores
  '5399': 'GENERAL_MERCHANDISE_OTHER_GENERAL_MERCHANDISE', // Miscellaneous general merchandise
  '5411': 'FOOD_AND_DRINK_GROCERIES', // Grocery stores and supermarkets
  '5422': 'FOOD_AND_DRINK_GROCERIES', // Freezer and locker meat provisioners
  '5441': 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK', // Candy, nut and confectionery stores
  '5451': 'FOOD_AND_DRINK_GROCERIES', // Dairy products stores
  '5462': 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK', // Bakeries
  '5499': 'FOOD_AND_DRINK_GROCERIES', // Miscellaneous food stores, convenience and specialty markets
  '5511': 'TRANSPORTATION_OTHER_TRANSPORTATION', // Car and truck dealers, new and used
  '5532': 'GENERAL_SERVICES_AUTOMOTIVE', // Automotive tire stores
  '5533': 'GENERAL_SERVICES_AUTOMOTIVE', // Automotive parts and accessories stores
  '5541': 'TRANSPORTATION_GAS', // Service stations
  '5542': 'TRANSPORTATION_GAS', // Automated fuel dispensers
  '5611': 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES', // Men's and boys' clothing and accessories stores
  '5621': 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES', // Women's ready-to-wear stores
  '5631': 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES', // Women's accessory and specialty shops
  '5641': 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES', // Children's and infants' wear stores
  '5651': 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES', // Family clothing stores
  '5655': 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES', // Sports and riding apparel stores
  '5661': 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES', // Shoe stores
  '5691': 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES', // Men's and women's clothing stores
  '5699': 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES', // Miscellaneous apparel and accessory shops
  '5712': 'HOME_IMPROVEMENT_FURNITURE', // Furniture, home furnishings and equipment stores
  '5722': 'GENERAL_MERCHANDISE_ELECTRONICS', // Household appliance stores
  '5732': 'GENERAL_MERCHANDISE_ELECTRONICS', // Electronics stores
  '5733': 'ENTERTAINMENT_MUSIC_AND_AUDIO', // Music stores, musical instruments
  '5734': 'GENERAL_MERCHANDISE_ELECTRONICS', // Computer software stores
  '5735': 'ENTERTAINMENT_MUSIC_AND_AUDIO', // Record stores
  '5811': 'FOOD_AND_DRINK_RESTAURANT', // Caterers
  '5812': 'FOOD_AND_DRINK_RESTAURANT', // Eating places and restaurants
  '5813': 'FOOD_AND_DRINK_RESTAURANT', // Drinking places: bars, taverns, nightclubs
  '5814': 'FOOD_AND_DRINK_FAST_FOOD', // Fast food restaurants
  '5815': 'ENTERTAINMENT_OTHER_ENTERTAINMENT', // Digital goods: books, movies, music
  '5816': 'ENTERTAINMENT_VIDEO_GAMES', // Digital goods: games
  '5817': 'GENERAL_MERCHANDISE_ELECTRONICS', // Digital goods: applications
  '5818': 'ENTERTAINMENT_OTHER_ENTERTAINMENT', // Digital goods: large digital goods merchant
  '5912': 'MEDICAL_PHARMACIES_AND_SUPPLEMENTS', // Drug stores and pharmacies
  '5921': 'FOOD_AND_DRINK_BEER_WINE_AND_LIQUOR', // Package stores: beer, wine and liquor
  '5931': 'GENERAL_MERCHANDISE_OTHER_GENERAL_MERCHANDISE', // Used merchandise and secondhand stores
  '5940': 'GENERAL_MERCHANDISE_SPORTING_GOODS', // Bicycle shops, sales and service
  '5941': 'GENERAL_MERCHANDISE_SPORTING_GOODS', // Sporting goods stores
  '5942': 'GENERAL_MERCHANDISE_BOOKSTORES_AND_NEWSSTANDS', // Book stores
  '5943': 'GENERAL_MERCHANDISE_OFFICE_SUPPLIES', // Stationery, office and school supply stores
  '5944': 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES', // Jewelry, watch, clock and silverware stores
  '5945': 'GENERAL_MERCHANDISE_OTHER_GENERAL_MERCHANDISE', // Hobby, toy and game shops
  '5947': 'GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES', // Gift, card, novelty and souvenir shops
  '5948': 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES', // Luggage and leather goods stores
  '5964': 'GENERAL_MERCHANDISE_ONLINE_MARKETPLACES', // Direct marketing: catalog merchants
  '5977': 'PERSONAL_CARE_HAIR_AND_BEAUTY', // Cosmetic stores
  '5992': 'GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES', // Florists
  '5993': 'GENERAL_MERCHANDISE_TOBACCO_AND_VAPE', // Cigar stores and stands
  '5994': 'GENERAL_MERCHANDISE_BOOKSTORES_AND_NEWSSTANDS', // News dealers and newsstands
  '5995': 'GENERAL_MERCHANDISE_PET_SUPPLIES', // Pet shops, pet food and supplies
  '5999': 'GENERAL_MERCHANDISE_OTHER_GENERAL_MERCHANDISE', // Miscellaneous and specialty retail stores
  // Financial
  '6010': 'TRANSFER_OUT_WITHDRAWAL', // Financial institutions: manual cash disbursements
  '6011': 'TRANSFER_OUT_WITHDRAWAL', // Financial institutions: automated cash disbursements (ATM)
  '6051': 'TRANSFER_OUT_ACCOUNT_TRANSFER', // Non-financial institutions: foreign currency, money orders
  '6211': 'TRANSFER_OUT_INVESTMENT_AND_RETIREMENT_FUNDS', // Security brokers and dealers
  '6300': 'GENERAL_SERVICES_INSURANCE', // Insurance sales, underwriting and premiums
  '6513': 'RENT_AND_UTILITIES_RENT', // Real estate agents and managers: rentals
  // Services
  '7011': 'TRAVEL_LODGING', // Hotels, motels and resorts
  '7032': 'ENTERTAINMENT_OTHER_ENTERTAINMENT', // Sporting and recreational camps
  '7033': 'TRAVEL_LODGING', // Trailer parks and campgrounds
  '7210': 'PERSONAL_CARE_LAUNDRY_AND_DRY_CLEANING', // Laundry, cleaning and garment services
  '7211': 'PERSONAL_CARE_LAUNDRY_AND_DRY_CLEANING', // Laundries, family and commercial
  '7216': 'PERSONAL_CARE_LAUNDRY_AND_DRY_CLEANING', // Dry cleaners
  '7230': 'PERSONAL_CARE_HAIR_AND_BEAUTY', // Beauty and barber shops
  '7241': 'PERSONAL_CARE_HAIR_AND_BEAUTY', // Barber shops
  '7276': 'GENERAL_SERVICES_ACCOUNTING_AND_FINANCIAL_PLANNING', // Tax preparation services
  '7298': 'PERSONAL_CARE_HAIR_AND_BEAUTY', // Health and beauty spas
  '7299': 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES', // Miscellaneous personal services
  '7311': 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES', // Advertising services
  '7372': 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES', // Computer programming, data processing
  '7399': 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES', // Business services
  '7512': 'TRAVEL_RENTAL_CARS', // Automobile rental agency
  '7513': 'TRAVEL_RENTAL_CARS', // Truck and utility trailer rentals
  '7523': 'TRANSPORTATION_PARKING', // Parking lots and garages
  '7531': 'GENERAL_SERVICES_AUTOMOTIVE', // Automotive body repair shops
  '7538': 'GENERAL_SERVICES_AUTOMOTIVE', // Automotive service shops
  '7542': 'GENERAL_SERVICES_AUTOMOTIVE', // Car washes
  '7549': 'GENERAL_SERVICES_AUTOMOTIVE', // Towing services
  '7832': 'ENTERTAINMENT_TV_AND_MOVIES', // Motion picture theaters
  '7841': 'ENTERTAINMENT_TV_AND_MOVIES', // Video tape rental stores
  '7922': 'ENTERTAINMENT_SPORTING_EVENTS_AMUSEMENT_PARKS_AND_MUSEUMS', // Theatrical producers and ticket agencies
  '7929': 'ENTERTAINMENT_OTHER_ENTERTAINMENT', // Bands, orchestras and entertainers
  '7932': 'ENTERTAINMENT_OTHER_ENTERTAINMENT', // Billiard and pool establishments
  '7933': 'ENTERTAINMENT_OTHER_ENTERTAINMENT', // Bowling alleys
  '7941': 'ENTERTAINMENT_SPORTING_EVENTS_AMUSEMENT_PARKS_AND_MUSEUMS', // Commercial sports, athletic fields
  '7991': 'ENTERTAINMENT_SPORTING_EVENTS_AMUSEMENT_PARKS_AND_MUSEUMS', // Tourist attractions and exhibits
  '7994': 'ENTERTAINMENT_VIDEO_GAMES', // Video game arcades
  '7995': 'ENTERTAINMENT_CASINOS_AND_GAMBLING', // Betting, lottery tickets, casino chips
  '7996': 'ENTERTAINMENT_SPORTING_EVENTS_AMUSEMENT_PARKS_AND_MUSEUMS', // Amusement parks, carnivals
  '7997': 'PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS', // Membership clubs: sports, recreation, athletic
  '7998': 'ENTERTAINMENT_SPORTING_EVENTS_AMUSEMENT_PARKS_AND_MUSEUMS', // Aquariums, seaquariums, dolphinariums
  '7999': 'ENTERTAINMENT_OTHER_ENTERTAINMENT', // Recreation services
  '8011': 'MEDICAL_PRIMARY_CARE', // Doctors and physicians
  '8021': 'MEDICAL_DENTAL_CARE', // Dentists and orthodontists
  '8042': 'MEDICAL_EYE_CARE', // Optometrists and ophthalmologists
  '8043': 'MEDICAL_EYE_CARE', // Opticians, optical goods and eyeglasses
  '8050': 'MEDICAL_NURSING_CARE', // Nursing and personal care facilities
  '8062': 'MEDICAL_OTHER_MEDICAL', // Hospitals
  '8071': 'MEDICAL_OTHER_MEDICAL', // Medical and dental laboratories
  '8099': 'MEDICAL_OTHER_MEDICAL', // Medical services and health practitioners
  '8111': 'GENERAL_SERVICES_CONSULTING_AND_LEGAL', // Legal services and attorneys
  '8211': 'GENERAL_SERVICES_EDUCATION', // Elementary and secondary schools
  '8220': 'GENERAL_SERVICES_EDUCATION', // Colleges, universities, professional schools
  '8299': 'GENERAL_SERVICES_EDUCATION', // Schools and educational services
  '8351': 'GENERAL_SERVICES_CHILDCARE', // Child care services
  '8398': 'GOVERNMENT_AND_NON_PROFIT_DONATIONS', // Charitable and social service organizations
  '8641': 'GOVERNMENT_AND_NON_PROFIT_OTHER_GOVERNMENT_AND_NON_PROFIT', // Civic, social and fraternal associations
  '8651': 'GOVERNMENT_AND_NON_PROFIT_DONATIONS', // Political organizations
  '8661': 'GOVERNMENT_AND_NON_PROFIT_DONATIONS', // Religious organizations
  '8931': 'GENERAL_SERVICES_ACCOUNTING_AND_FINANCIAL_PLANNING', // Accounting, auditing and bookkeeping
  '8999': 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES', // Professional services
  // Government
  '9211': 'GOVERNMENT_AND_NON_PROFIT_GOVERNMENT_DEPARTMENTS_AND_AGENCIES', // Court costs, alimony, child support
  '9222': 'GOVERNMENT_AND_NON_PROFIT_GOVERNMENT_DEPARTMENTS_AND_AGENCIES', // Fines
  '9311': 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT', // Tax payments
  '9399': 'GOVERNMENT_AND_NON_PROFIT_GOVERNMENT_DEPARTMENTS_AND_AGENCIES', // Government services
  '9402': 'GENERAL_SERVICES_POSTAGE_AND_SHIPPING', // Postal services, government only
};

const RANGES: ReadonlyArray<readonly [from: number, to: number, detailed: string]> = [
  [3000, 3350, 'TRAVEL_FLIGHTS'],
  [3351, 3500, 'TRAVEL_RENTAL_CARS'],
  [3501, 3999, 'TRAVEL_LODGING'],
];

const FOUR_DIGITS = /^\d{4}$/;
const BY_CODE = new Map(Object.entries(CODES).map(([code, detailed]) => [code, categoryOf(detailed)]));
const BY_RANGE = RANGES.map(([from, to, detailed]) => [from, to, categoryOf(detailed)] as const);

/** The category of a four-digit merchant category code; undefined when the table does not list it. */
export function categoryOfMcc(mcc: string): Category | undefined {
  const code = mcc.trim().padStart(4, '0');
  if (!FOUR_DIGITS.test(code)) return undefined;
  const number = Number(code);
  return BY_CODE.get(code) ?? BY_RANGE.find(([from, to]) => number >= from && number <= to)?.[2];
}
