import { UnackedClients } from './unacked';

test('a client retrying one transaction for max-ack-delay is unanswered; an answered one is not', () => {
  const u = new UnackedClients(2000);
  u.observe({ mac: 'a', xid: 1 }, 0);
  u.observe({ mac: 'b', xid: 7 }, 0);
  u.observe({ mac: 'b', xid: 7 }, 100); // DISCOVER then REQUEST, answered
  u.observe({ mac: 'a', xid: 1 }, 1999);
  expect(u.count()).toBe(0);
  u.observe({ mac: 'a', xid: 1 }, 2000);
  expect(u.count()).toBe(1);
});

test('a new transaction (another xid) starts the clock again', () => {
  const u = new UnackedClients(2000);
  u.observe({ mac: 'a', xid: 1 }, 0);
  u.observe({ mac: 'a', xid: 2 }, 30_000);
  u.observe({ mac: 'a', xid: 2 }, 31_000);
  expect(u.count()).toBe(0);
});

test('a client asked once is not unanswered, whatever its secs field says; reset forgets everything', () => {
  const u = new UnackedClients(2000);
  u.observe({ mac: 'a', xid: 1 }, 0);
  expect(u.observe({ mac: 'a', xid: 1 }, 2500)).toBe(true);
  expect(u.observe({ mac: 'a', xid: 1 }, 3000)).toBe(false); // counted once
  u.observe({ mac: 'b', xid: 1 }, 0);
  expect(u.count()).toBe(1);
  u.reset();
  expect(u.count()).toBe(0);
});
