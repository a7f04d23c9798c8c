import {
  COMPARE_MAX_SOURCES,
  COMPARE_MIN_SOURCES,
  comparePath,
  parseCompareIds,
  sourcePagePath,
} from './site-links.ts';

describe('sourcePagePath', () => {
  it('opens the public strategy page when there is one, else the premium report', () => {
    expect(sourcePagePath({ id: 3, detailSlug: 'liquity' })).toBe('/options/liquity');
    expect(sourcePagePath({ id: 8, detailSlug: null })).toBe('/premium/8');
  });
});

describe('the compare link', () => {
  it('writes the ids in the order chosen and reads them back', () => {
    expect(comparePath([3, 2, 13])).toBe('/compare?ids=3,2,13');
    expect(parseCompareIds('?ids=3,2,13')).toEqual({ ok: true, ids: [3, 2, 13] });
    expect(parseCompareIds(new URLSearchParams('ids=8%2C4'))).toEqual({ ok: true, ids: [8, 4] });
  });

  it('takes two or three sources', () => {
    expect([COMPARE_MIN_SOURCES, COMPARE_MAX_SOURCES]).toEqual([2, 3]);
    expect(parseCompareIds('?ids=3')).toMatchObject({ ok: false, problem: 'too-few', ids: [3] });
    expect(parseCompareIds('?ids=3,2,13,4')).toMatchObject({
      ok: false,
      problem: 'too-many',
      ids: [3, 2, 13, 4],
    });
  });

  it('says what is wrong with a link it cannot use', () => {
    expect(parseCompareIds('')).toMatchObject({ ok: false, problem: 'missing' });
    expect(parseCompareIds('?ids=')).toMatchObject({ ok: false, problem: 'missing' });
    expect(parseCompareIds('?ids=3,abc,-2')).toEqual({
      ok: false,
      problem: 'malformed',
      ids: [3],
      malformed: ['abc', '-2'],
    });
    expect(parseCompareIds('?ids=3,3')).toMatchObject({
      ok: false,
      problem: 'duplicate',
      ids: [3],
    });
    expect(parseCompareIds('?ids=03,2')).toMatchObject({ ok: false, problem: 'malformed' });
  });

  it('forgives spaces and a trailing comma', () => {
    expect(parseCompareIds('?ids=3,%202,')).toEqual({ ok: true, ids: [3, 2] });
  });
});
