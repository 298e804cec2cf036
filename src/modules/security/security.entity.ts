import { defineEntity, p } from '@mikro-orm/core';
import { SECURITY_TYPES } from '../../providers/provider-investments.ts';

/**
 * An exact decimal as the provider reports it (a quantity, a price, a value, an amount or a rate of
 * investments and liabilities), read and written as a string: unconstrained `numeric`, so no digit a
 * provider sends is rounded away or refused (docs/decisions/investments-exact-decimals.md).
 */
export const reported = () => p.decimal('string').columnType('numeric');

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
    closePrice: reported().nullable(),
    closePriceDate: p.date().nullable(),
    updatedAt: p.datetime(),
  },
});

export type SecurityEntity = InstanceType<typeof Security.class>;
