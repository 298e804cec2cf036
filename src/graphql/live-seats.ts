/**
 * A process's live-update connections per profile, WebSockets and SSE streams together: one budget,
 * so that neither transport adds to what the other may hold.
 */
export class LiveSeats {
  readonly #held = new Map<string, number>();
  readonly #perProfile: number;

  constructor(perProfile: number) {
    this.#perProfile = perProfile;
  }

  /** A seat for one more connection of the profile and how to give it back (once), or undefined when the profile holds every seat. */
  take(profileId: string): (() => void) | undefined {
    const held = this.#held.get(profileId) ?? 0;
    if (held >= this.#perProfile) return undefined;
    this.#held.set(profileId, held + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.#held.get(profileId) ?? 1) - 1;
      if (left === 0) this.#held.delete(profileId);
      else this.#held.set(profileId, left);
    };
  }
}
