import { UnackedClients } from './unacked';

test('a client retrying one transaction for max-ack-delay is unanswered; an answered one is not', () => {
  const u = new UnackedClients(2000);
  u.observe({ mac: 'a', xid: 1, secs: 0 }, 0);
  u.observe({ mac: 'b', xid: 7, secs: 0 }, 0);
  u.observe({ mac: 'b', xid: 7, secs: 0 }, 100); // DISCOVER then REQUEST, answered
  u.observe({ mac: 'a', xid: 1, secs: 0 }, 1999);
  expect(u.count()).toBe(0);
  u.observe({ mac: 'a', xid: 1, secs: 0 }, 2000);
  expect(u.count()).toBe(1);
});

test('a new transaction (another xid) starts the clock again', () => {
  const u = new UnackedClients(2000);
  u.observe({ mac: 'a', xid: 1, secs: 0 }, 0);
  u.observe({ mac: 'a', xid: 2, secs: 0 }, 30_000);
  u.observe({ mac: 'a', xid: 2, secs: 0 }, 31_000);
  expect(u.count()).toBe(0);
});

test('the secs field alone can say a client is unanswered; reset forgets everything', () => {
  const u = new UnackedClients(2000);
  u.observe({ mac: 'a', xid: 1, secs: 2 }, 0);
  u.observe({ mac: 'b', xid: 1, secs: 1 }, 0);
  expect(u.count()).toBe(1);
  u.reset();
  expect(u.count()).toBe(0);
});
