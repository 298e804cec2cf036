import { describe, expect, it } from 'vitest';
import { toIssue } from '../../src/rest/validation-issues.ts';

describe('ajv errors as field issues', () => {
  it('names the missing property of `required` below the object it is missing from', () => {
    expect(toIssue({ instancePath: '/requestBody', keyword: 'required', params: { missingProperty: 'targetUrl' }, message: "must have required property 'targetUrl'" })).toEqual({
      path: ['targetUrl'],
      message: 'is required',
    });
    expect(toIssue({ instancePath: '/requestBody/address', keyword: 'required', params: { missingProperty: 'city' } })).toEqual({ path: ['address', 'city'], message: 'is required' });
  });

  it('names the unknown property of `additionalProperties`', () => {
    expect(toIssue({ instancePath: '/requestBody', keyword: 'additionalProperties', params: { additionalProperty: 'nickname' }, message: 'must NOT have additional properties' })).toEqual({
      path: ['nickname'],
      message: 'is not a known field',
    });
    expect(toIssue({ instancePath: '/requestBody/names', keyword: 'additionalProperties', params: { additionalProperty: 'nick' } })).toEqual({
      path: ['names', 'nick'],
      message: 'is not a known field',
    });
  });

  it('keeps nested paths and array indexes, with ajv\'s message', () => {
    expect(toIssue({ instancePath: '/requestBody/eventTypes/2', keyword: 'type', params: { type: 'string' }, message: 'must be string' })).toEqual({
      path: ['eventTypes', '2'],
      message: 'must be string',
    });
    expect(toIssue({ instancePath: '/requestBody/metadata/plan', keyword: 'maxLength', params: { limit: 500 }, message: 'must NOT have more than 500 characters' })).toEqual({
      path: ['metadata', 'plan'],
      message: 'must NOT have more than 500 characters',
    });
  });

  it('unescapes JSON Pointer segments: ~1 is a slash and ~0 a tilde, ~01 is the literal ~1', () => {
    expect(toIssue({ instancePath: '/requestBody/metadata/a~1b', keyword: 'maxLength', params: {}, message: 'too long' }).path).toEqual(['metadata', 'a/b']);
    expect(toIssue({ instancePath: '/requestBody/metadata/home~0dir', keyword: 'maxLength', params: {}, message: 'too long' }).path).toEqual(['metadata', 'home~dir']);
    expect(toIssue({ instancePath: '/requestBody/metadata/x~01', keyword: 'maxLength', params: {}, message: 'too long' }).path).toEqual(['metadata', 'x~1']);
    expect(toIssue({ instancePath: '/requestBody/metadata', keyword: 'additionalProperties', params: { additionalProperty: 'a/b' } }).path).toEqual(['metadata', 'a/b']);
  });

  it.each([
    ['/query/limit', ['limit']],
    ['/path/profileId', ['profileId']],
    ['/header/service-version', ['service-version']],
    ['/params/id', ['id']],
    ['/requestBody', []],
  ])('drops the request part from %s', (instancePath, path) => {
    expect(toIssue({ instancePath, keyword: 'minimum', params: {}, message: 'must be >= 1' })).toEqual({ path, message: 'must be >= 1' });
  });

  it('keeps a body field that happens to be named like a request part only below the part', () => {
    expect(toIssue({ instancePath: '/requestBody/query', keyword: 'type', params: {}, message: 'must be string' }).path).toEqual(['query']);
  });

  it('says "is invalid" when ajv gives no message', () => {
    expect(toIssue({ instancePath: '/requestBody/uuid', keyword: 'format', params: { format: 'uuid' } })).toEqual({ path: ['uuid'], message: 'is invalid' });
  });
});
