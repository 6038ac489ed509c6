// The listening sockets a namespaced run gets masked: read from /proc/net/unix's text, the run's own and covered folders left out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseUnixSockets, socketsToMask } from '../../src/core/security/unixSockets';

const LISTING = [
  'Num       RefCount Protocol Flags    Type St Inode Path',
  '0000000000000000: 00000002 00000000 00010000 0001 01 1001 /var/tmp/daemon.sock',
  '0000000000000000: 00000002 00000000 00010000 0001 01 1002 @abstract-name',
  '0000000000000000: 00000003 00000000 00000000 0001 03 1003',
  '0000000000000000: 00000002 00000000 00010000 0001 01 1004 /home/u/with space.sock',
  '0000000000000000: 00000002 00000000 00010000 0001 01 1005 relative.sock',
  '0000000000000000: 00000002 00000000 00010000 0001 01 1006 /var/tmp/daemon.sock',
].join('\n');

describe('unixSockets', () => {
  it('keeps absolute paths once, spaces included; abstract, unnamed and relative ones are left out', () => {
    assert.deepEqual(parseUnixSockets(LISTING), ['/var/tmp/daemon.sock', '/home/u/with space.sock']);
  });
  it('masks nothing that no longer exists as a socket', () => {
    assert.deepEqual(socketsToMask([], [], LISTING), { paths: [], leftOut: 0 });
  });
});
