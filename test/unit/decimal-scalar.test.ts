import { describe, expect, it } from 'vitest';
import { scalars } from '../../src/graphql/scalars.ts';

/** A Decimal as it goes out on the wire: the response body is JSON.stringify of the result. */
const wire = (stored: string) => JSON.stringify({ value: scalars.Decimal.serialize(stored) });

describe('the Decimal scalar', () => {
  it('sends exactly the stored digits as a JSON number, however many, never through a float', () => {
    expect(wire('98765432.0123456789')).toBe('{"value":98765432.0123456789}');
    expect(wire('12345678901234.5678')).toBe('{"value":12345678901234.5678}');
    expect(wire('0.0000000001')).toBe('{"value":0.0000000001}');
  });

  it('drops trailing fraction zeros and prints no exponent or negative zero', () => {
    expect(wire('-16023.4700')).toBe('{"value":-16023.47}');
    expect(wire('1500.0000')).toBe('{"value":1500}');
    expect(wire('-0.0000')).toBe('{"value":0}');
    expect(wire('-0.0001')).toBe('{"value":-0.0001}');
    expect(wire('0.5000')).toBe('{"value":0.5}');
    expect(wire('100')).toBe('{"value":100}');
    expect(wire('-0')).toBe('{"value":0}');
  });

  it('drops leading zeros a provider\'s text may carry', () => {
    expect(wire('-00012.50')).toBe('{"value":-12.5}');
    expect(wire('007')).toBe('{"value":7}');
    expect(wire('00.2500')).toBe('{"value":0.25}');
  });
});
