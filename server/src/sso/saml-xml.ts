/**
 * Reading the xml2js trees node-saml produces (`explicitCharkey`, namespace prefixes stripped):
 * every element is `{ $?: attributes, _?: text, Child: [elements] }`. Only the assertion node-saml
 * verified is read for decisions; see saml-checks.ts.
 */
import { parseXml2JsFromString } from '@node-saml/node-saml/lib/xml.js';

export interface XmlElement {
  $?: Record<string, string>;
  _?: string;
  [child: string]: unknown;
}

function isElement(value: unknown): value is XmlElement {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The child elements of a name; an element with neither text nor attributes is read as empty. */
export function children(node: XmlElement | undefined, name: string): XmlElement[] {
  const value = node?.[name];
  if (!Array.isArray(value)) return [];
  return value.map((item: unknown) => (isElement(item) ? item : typeof item === 'string' ? { _: item } : {}));
}

export function child(node: XmlElement | undefined, name: string): XmlElement | undefined {
  return children(node, name)[0];
}

export function attr(node: XmlElement | undefined, name: string): string | undefined {
  return node?.$?.[name];
}

export function text(node: XmlElement | undefined): string | undefined {
  const value = node?._?.trim();
  return value ? value : undefined;
}

/** The root element of a tree (`{ Response: {...} }` → the Response), if it has that name. */
export function root(tree: unknown, name: string): XmlElement | undefined {
  if (!isElement(tree)) return undefined;
  const value = tree[name];
  return isElement(value) ? value : undefined;
}

export async function parseXml(xml: string): Promise<unknown> {
  return parseXml2JsFromString(xml);
}
