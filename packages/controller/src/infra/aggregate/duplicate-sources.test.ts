import { removeDuplicateSources } from './duplicate-sources';

describe('removeDuplicateSources', () => {
  test.each([
    {
      name: 'no sharing: every range kept',
      claims: [
        { attachment: 'a', ranges: ['198.51.100.10/32'] },
        { attachment: 'b', ranges: ['198.51.100.11/32'] },
      ],
      ranges: { a: ['198.51.100.10/32'], b: ['198.51.100.11/32'] },
      conflicts: [],
    },
    {
      name: 'a shared /32 is removed from every claimant, their other /32s stay',
      claims: [
        { attachment: 'c', ranges: ['198.51.100.12/32', '198.51.100.50/32'] },
        { attachment: 'a', ranges: ['198.51.100.10/32', '198.51.100.50/32'] },
        { attachment: 'b', ranges: ['198.51.100.50/32'] },
      ],
      ranges: { a: ['198.51.100.10/32'], b: [], c: ['198.51.100.12/32'] },
      conflicts: ['DuplicateSourceIP a,b,c: attachments "a", "b", "c" share source CIDR "198.51.100.50/32"'],
    },
    {
      name: 'one conflict per shared address, sorted',
      claims: [
        { attachment: 'a', ranges: ['198.51.100.9/32', '198.51.100.10/32'] },
        { attachment: 'b', ranges: ['198.51.100.10/32', '198.51.100.9/32'] },
      ],
      ranges: { a: [], b: [] },
      conflicts: [
        'DuplicateSourceIP a,b: attachments "a", "b" share source CIDR "198.51.100.10/32"',
        'DuplicateSourceIP a,b: attachments "a", "b" share source CIDR "198.51.100.9/32"',
      ],
    },
  ])('$name', ({ claims, ranges, conflicts }) => {
    const got = removeDuplicateSources(claims);
    expect(Object.fromEntries(got.ranges)).toEqual(ranges);
    expect(got.conflicts.map((c) => `${c.reason} ${c.attachments.join(',')}: ${c.message}`)).toEqual(
      conflicts,
    );
  });
});
