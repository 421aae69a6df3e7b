import { describe, expect, it } from 'vitest';
import { classifyAddress, parseIPv4 } from './internal-address.ts';

describe('parseIPv4', () => {
  it('reads every form a URL host accepts, and nothing else', () => {
    const loopback = 0x7f000001;
    for (const form of [
      '127.0.0.1',
      '2130706433',
      '0x7f000001',
      '0x7f.0.0.1',
      '0177.0.0.1',
      '127.1',
      '127.0.1',
      '0x7F.1',
    ])
      expect(parseIPv4(form), form).toBe(loopback);
    expect(parseIPv4('0')).toBe(0);
    expect(parseIPv4('255.255.255.255')).toBe(0xffffffff);
    for (const form of [
      '256.0.0.1',
      '1.2.3.4.5',
      '4294967296',
      '08.0.0.1',
      '1..1',
      '',
      'a.b.c.d',
      '1.2.3.256',
      '::1',
    ])
      expect(parseIPv4(form), form).toBeNull();
  });
});

describe('classifyAddress', () => {
  it('this machine, however it is written', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.255.254',
      '2130706433',
      '0x7f.0.0.1',
      '0177.0.0.1',
      '127.1',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '[::ffff:127.0.0.1]',
      '64:ff9b::127.0.0.1',
      '2002:7f00:1::',
    ])
      expect(classifyAddress(address), address).toBe('loopback');
  });

  it('private, shared, link-local, metadata and reserved ranges', () => {
    for (const address of [
      '0.0.0.0',
      '0',
      '0.1.2.3',
      '10.0.0.1',
      '012.0.0.1',
      '167772161',
      '100.64.0.1',
      '100.127.255.255',
      '100.100.100.200',
      '169.254.169.254',
      '169.254.170.2',
      '0xa9.0xfe.0xa9.0xfe',
      '2852039166',
      '172.16.0.1',
      '172.31.255.255',
      '192.0.0.192',
      '192.0.2.10',
      '192.168.1.1',
      '198.18.0.1',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::127.0.0.1',
      'fc00::1',
      'fd00:ec2::254',
      'fdff:ffff::1',
      'fe80::1',
      'fe80::1%eth0',
      'febf::1',
      'fec0::1',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '64:ff9b::10.1.2.3',
      '64:ff9b:1::1',
      '100::1',
      '2001:db8::1',
      '2001::1',
      '2002:c0a8:101::1',
    ])
      expect(classifyAddress(address), address).toBe('internal');
  });

  it('public addresses, of either family', () => {
    for (const address of [
      '8.8.8.8',
      '142.250.180.10',
      '1.1.1.1',
      '100.63.255.255',
      '100.128.0.1',
      '172.15.255.255',
      '172.32.0.1',
      '169.253.0.1',
      '192.169.0.1',
      '2a00:1450:4009:81f::200a',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::8.8.8.8',
      '2002:808:808::1',
    ])
      expect(classifyAddress(address), address).toBe('public');
  });

  it('a name or garbage is not an address', () => {
    for (const text of ['localhost', 'fcm.googleapis.com', '', '1.2.3.4.5', ':::1', '[fe80::1'])
      expect(classifyAddress(text), text).toBeNull();
  });
});
