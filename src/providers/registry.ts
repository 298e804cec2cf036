import type { Provider } from './provider.ts';

/** Looks providers up by the name stored on each connection. */
export function providerRegistry(providers: Provider[]): (name: string) => Provider {
  const byName = new Map(providers.map((provider) => [provider.name, provider]));
  return (name) => {
    const provider = byName.get(name);
    if (!provider) throw new Error(`no provider named ${name} is configured`);
    return provider;
  };
}
