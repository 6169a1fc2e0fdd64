/**
 * The identity in a verified SAML assertion. Universities name attributes either by OID (the
 * `urn:oasis:names:tc:SAML:2.0:attrname-format:uri` names InCommon and eduGAIN use, often with a
 * FriendlyName) or by a bare name; both are accepted, whichever the IdP sends.
 */
import { SSO_DEFAULT_AFFILIATION_ATTRIBUTE } from '@campus/contract';
import type { AssertedIdentity } from './protocol.js';
import { refuse } from './saml-checks.js';
import { attr, children, text, type XmlElement } from './saml-xml.js';

/** Friendly name ↔ OID of the attributes Campus Market reads (eduPerson / inetOrgPerson). */
const KNOWN_ATTRIBUTES: Record<string, string> = {
  mail: 'urn:oid:0.9.2342.19200300.100.1.3',
  email: 'urn:oid:0.9.2342.19200300.100.1.3',
  givenName: 'urn:oid:2.5.4.42',
  sn: 'urn:oid:2.5.4.4',
  eduPersonScopedAffiliation: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.9',
  eduPersonAffiliation: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.1',
};

/** Every name an attribute may arrive under: as configured, its OID or its friendly name. */
function namesOf(name: string): string[] {
  const names = new Set([name]);
  const oid = KNOWN_ATTRIBUTES[name];
  if (oid) names.add(oid);
  for (const [friendly, knownOid] of Object.entries(KNOWN_ATTRIBUTES)) {
    if (knownOid === name) names.add(friendly);
  }
  return [...names];
}

/** Attribute values by Name and by FriendlyName, multi-valued, text values only. */
function attributeValues(assertion: XmlElement): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const statement of children(assertion, 'AttributeStatement')) {
    for (const attribute of children(statement, 'Attribute')) {
      const found = children(attribute, 'AttributeValue')
        .map(text)
        .filter((v): v is string => v !== undefined);
      for (const key of [attr(attribute, 'Name'), attr(attribute, 'FriendlyName')]) {
        if (key) values.set(key, [...(values.get(key) ?? []), ...found]);
      }
    }
  }
  return values;
}

function lookup(values: Map<string, string[]>, ...names: string[]): string[] {
  for (const name of names.flatMap(namesOf)) {
    const found = values.get(name);
    if (found?.length) return found;
  }
  return [];
}

export function identityFromAssertion(
  assertion: XmlElement,
  affiliationAttribute: string = SSO_DEFAULT_AFFILIATION_ATTRIBUTE,
): AssertedIdentity {
  const values = attributeValues(assertion);
  // Only an attribute the university released counts: the NameID is often a transient or opaque
  // identifier, and an e-mail-shaped NameID is not a promise that the address is the student's.
  const email = lookup(values, 'mail', 'email')[0]?.toLowerCase();
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) throw refuse('missing-email');
  return {
    email,
    givenName: lookup(values, 'givenName')[0] ?? null,
    familyName: lookup(values, 'sn')[0] ?? null,
    affiliations: [...new Set(lookup(values, affiliationAttribute))],
  };
}
