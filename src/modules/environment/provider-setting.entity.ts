import { defineEntity, p } from '@mikro-orm/core';
import { Environment } from './environment.entity.ts';

/**
 * An upstream provider configured for one environment (Plaid keys, …): the operator sets it with
 * `npm run cli -- providers set`. `settingsEncrypted` is the provider's settings as JSON, encrypted
 * (FieldCipher) because they hold the upstream's secret. The newest configured provider is the one
 * the connect page opens for the environment.
 */
export const ProviderSetting = defineEntity({
  name: 'ProviderSetting',
  properties: {
    id: p.uuid().primary(),
    environment: () => p.manyToOne(Environment).deleteRule('cascade'),
    provider: p.text(),
    settingsEncrypted: p.text(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['environment', 'provider'] }],
});

export type ProviderSettingEntity = InstanceType<typeof ProviderSetting.class>;
