import { defineEntity, p } from '@mikro-orm/core';
import { SECURITY_TYPES } from '../../providers/provider.ts';

/** An exact quantity or unit price: up to 10 fraction digits (fractional shares, crypto), read and written as a string. */
export const quantity = () => p.decimal('string').columnType('numeric(38,10)');

/**
 * An instrument that holdings and investment transactions name: reference data shared by every
 * profile, holding nothing about a person. `identity` is what makes two reports the same instrument
 * (see `securityIdentity`); the other fields are the latest any provider reported.
 */
export const Security = defineEntity({
  name: 'Security',
  properties: {
    id: p.uuid().primary(),
    identity: p.text().unique(),
    name: p.text().nullable(),
    tickerSymbol: p.text().nullable(),
    isin: p.text().nullable(),
    cusip: p.text().nullable(),
    type: p.enum(SECURITY_TYPES),
    currencyCode: p.text(),
    closePrice: quantity().nullable(),
    closePriceDate: p.date().nullable(),
    updatedAt: p.datetime(),
  },
});

export type SecurityEntity = InstanceType<typeof Security.class>;
