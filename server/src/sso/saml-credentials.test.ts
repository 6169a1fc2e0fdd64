/**
 * The SP's signing key and certificate: from SAML_SP_KEY/SAML_SP_CERT (PEM text or file paths),
 * or generated once into DATA_DIR and the same after a restart (a new one would void every
 * university's registration of our metadata).
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSamlSpCredentials, type SamlSpCredentials } from './saml-credentials.js';

let dir: string;
let generated: SamlSpCredentials;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cm-saml-keys-'));
  generated = await loadSamlSpCredentials(path.join(dir, 'data'), {});
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('SAML SP credentials', () => {
  it('generates a matching key and self-signed certificate into DATA_DIR, private to the owner', async () => {
    const cert = new X509Certificate(generated.certificatePem);
    expect(cert.checkPrivateKey(createPrivateKey(generated.privateKeyPem))).toBe(true);
    expect(cert.subject).toContain('Campus Market');
    expect(Date.parse(cert.validTo)).toBeGreaterThan(Date.now() + 5 * 365 * 86_400_000);
    // Only the one file stays behind (no temporary key material).
    expect(await readdir(path.join(dir, 'data'))).toEqual(['saml-sp.pem']);
    expect((await stat(path.join(dir, 'data', 'saml-sp.pem'))).mode & 0o077).toBe(0);
  });

  it('reuses the generated pair after a restart, and two processes starting together get one pair', async () => {
    expect(await loadSamlSpCredentials(path.join(dir, 'data'), {})).toEqual(generated);
    const fresh = path.join(dir, 'shared');
    const [a, b] = await Promise.all([loadSamlSpCredentials(fresh, {}), loadSamlSpCredentials(fresh, {})]);
    expect(a).toEqual(b);
  });

  it('takes SAML_SP_KEY and SAML_SP_CERT as PEM text (escaped newlines too) or as file paths', async () => {
    const fromText = await loadSamlSpCredentials(path.join(dir, 'unused-a'), {
      key: generated.privateKeyPem.replace(/\n/g, '\\n'),
      cert: generated.certificatePem,
    });
    expect(fromText).toEqual(generated);
    const keyFile = path.join(dir, 'sp.key');
    const certFile = path.join(dir, 'sp.crt');
    await writeFile(keyFile, generated.privateKeyPem);
    await writeFile(certFile, generated.certificatePem);
    expect(await loadSamlSpCredentials(path.join(dir, 'unused-b'), { key: keyFile, cert: certFile })).toEqual(
      generated,
    );
    // Given settings generate nothing.
    await expect(readdir(path.join(dir, 'unused-a'))).rejects.toThrow();
  });

  it('refuses one setting without the other, an unreadable value, and a key not of the certificate', async () => {
    const other = await loadSamlSpCredentials(path.join(dir, 'other'), {});
    await expect(loadSamlSpCredentials(dir, { key: generated.privateKeyPem })).rejects.toThrow(
      /both or neither/,
    );
    await expect(loadSamlSpCredentials(dir, { cert: generated.certificatePem })).rejects.toThrow(
      /both or neither/,
    );
    await expect(
      loadSamlSpCredentials(dir, { key: path.join(dir, 'missing.pem'), cert: generated.certificatePem }),
    ).rejects.toThrow(/SAML_SP_KEY: neither PEM text nor a readable file/);
    await expect(
      loadSamlSpCredentials(dir, { key: other.privateKeyPem, cert: generated.certificatePem }),
    ).rejects.toThrow(/does not belong to the certificate/);
  });
});
