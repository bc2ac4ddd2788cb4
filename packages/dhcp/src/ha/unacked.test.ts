import { UnackedClients } from './unacked';

test('a client retrying one transaction for max-ack-delay is unanswered; an answered one is not', () => {
  const u = new UnackedClients(2000);
  u.observe({ mac: 'a', xid: 1, type: 1 }, 0);
  u.observe({ mac: 'b', xid: 7, type: 1 }, 0);
  u.observe({ mac: 'b', xid: 7, type: 3 }, 1900); // DISCOVER then REQUEST: offered (slowly), so answered
  u.observe({ mac: 'b', xid: 7, type: 3 }, 2000); // its REQUEST again soon after: not yet
  u.observe({ mac: 'a', xid: 1, type: 1 }, 1999);
  expect(u.count()).toBe(0);
  u.observe({ mac: 'a', xid: 1, type: 1 }, 2000);
  expect(u.count()).toBe(1);
});

test('a new transaction (another xid) starts the clock again', () => {
  const u = new UnackedClients(2000);
  u.observe({ mac: 'a', xid: 1, type: 1 }, 0);
  u.observe({ mac: 'a', xid: 2, type: 1 }, 30_000);
  u.observe({ mac: 'a', xid: 2, type: 1 }, 31_000);
  expect(u.count()).toBe(0);
});

test('a client asked once is not unanswered, whatever its secs field says; reset forgets everything', () => {
  const u = new UnackedClients(2000);
  u.observe({ mac: 'a', xid: 1, type: 1 }, 0);
  expect(u.observe({ mac: 'a', xid: 1, type: 1 }, 2500)).toBe(true);
  expect(u.observe({ mac: 'a', xid: 1, type: 1 }, 3000)).toBe(false); // counted once
  u.observe({ mac: 'b', xid: 1, type: 1 }, 0);
  expect(u.count()).toBe(1);
  u.reset();
  expect(u.count()).toBe(0);
});

test('a REQUEST sent again for max-ack-delay is unanswered too (the ACK never came)', () => {
  const u = new UnackedClients(2000);
  u.observe({ mac: 'a', xid: 1, type: 1 }, 0);
  u.observe({ mac: 'a', xid: 1, type: 3 }, 100);
  expect(u.observe({ mac: 'a', xid: 1, type: 3 }, 2099)).toBe(false);
  expect(u.observe({ mac: 'a', xid: 1, type: 3 }, 2100)).toBe(true);
});
