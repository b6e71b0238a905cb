// Writes the .d.ts that goes next to each generated parser, from the .ksy itself, so mapping
// code reads parsed fields with their real types instead of guessing at an untyped object.
import { lowerCamel, upperCamel, type KsyAttribute, type KsySpec, type KsyType } from './ksy-spec';

interface Scope {
  /** TypeScript name path of this type, e.g. ['Norby', 'Header']. */
  path: string[];
  type: KsyType;
}

const INTEGER = /^[us][1248](le|be)?$/;
const FLOAT = /^f[48](le|be)?$/;
const BIT_FLAG = /^b1(le|be)?$/;
const BITS = /^b\d+(le|be)?$/;

export function declarationsFor(spec: KsySpec, className: string, header: string): string {
  const root: Scope = { path: [className], type: spec };
  const lines = [header, "import type KaitaiStream from 'kaitai-struct/KaitaiStream.js';", ''];
  lines.push(...docLines(spec.doc, ''));
  lines.push(...classLines(root, [root], 'export declare '));
  lines.push(...namespaceLines(root, [root], 'export declare '));
  return lines.join('\n') + '\n';
}

function classLines(scope: Scope, chain: Scope[], prefix: string): string[] {
  const name = scope.path[scope.path.length - 1] ?? '';
  const lines = [`${prefix}class ${name} {`];
  lines.push('  constructor(io: KaitaiStream, parent?: unknown, root?: unknown);');
  for (const attribute of scope.type.seq ?? []) {
    if (attribute.id === undefined) continue; // unnamed padding stays private (`_unnamedN`)
    lines.push(...docLines(attribute.doc, '  '));
    lines.push(`  readonly ${lowerCamel(attribute.id)}: ${attributeType(attribute, chain)};`);
  }
  for (const [id, instance] of Object.entries(scope.type.instances ?? {})) {
    const type =
      instance.value !== undefined
        ? (instance['-ts-type'] ?? 'number')
        : attributeType(instance, chain);
    lines.push(...docLines(instance.doc, '  '));
    lines.push(`  readonly ${lowerCamel(id)}: ${type};`);
  }
  lines.push('}');
  return lines;
}

function namespaceLines(scope: Scope, chain: Scope[], prefix: string): string[] {
  const types = Object.entries(scope.type.types ?? {});
  const enums = Object.keys(scope.type.enums ?? {});
  if (types.length === 0 && enums.length === 0) return [];
  const name = scope.path[scope.path.length - 1] ?? '';
  const body: string[] = [];
  for (const id of enums) {
    body.push(`const ${upperCamel(id)}: { readonly [name: string]: number };`);
  }
  for (const [id, type] of types) {
    const child: Scope = { path: [...scope.path, upperCamel(id)], type };
    const childChain = [child, ...chain];
    body.push(...docLines(type.doc, ''));
    body.push(...classLines(child, childChain, ''));
    body.push(...namespaceLines(child, childChain, ''));
  }
  return [`${prefix}namespace ${name} {`, ...body.map((line) => `  ${line}`), '}'];
}

function attributeType(attribute: KsyAttribute, chain: Scope[]): string {
  let type = elementType(attribute, chain);
  if (attribute.repeat !== undefined) type = `Array<${type}>`;
  if (attribute.if !== undefined) type = `${type} | undefined`;
  return type;
}

function elementType(attribute: KsyAttribute, chain: Scope[]): string {
  const { type } = attribute;
  if (attribute.contents !== undefined || type === undefined) return 'Uint8Array';
  if (typeof type === 'object') {
    const cases = Object.values(type.cases).map((name) => scalarOrUserType(name, attribute, chain));
    // Without a default case Kaitai leaves sized fields as raw bytes and others unset.
    if (!('_' in type.cases)) cases.push(attribute.size !== undefined ? 'Uint8Array' : 'undefined');
    return [...new Set(cases)].join(' | ');
  }
  return scalarOrUserType(type, attribute, chain);
}

function scalarOrUserType(type: string, attribute: KsyAttribute, chain: Scope[]): string {
  if (attribute.enum !== undefined) return 'number';
  if (INTEGER.test(type) || FLOAT.test(type)) return 'number';
  if (BIT_FLAG.test(type)) return 'boolean';
  if (BITS.test(type)) return 'number';
  if (type === 'str' || type === 'strz') return 'string';
  return resolveUserType(type.replace(/\(.*\)$/, ''), chain);
}

/** Kaitai looks a type name up in the current type, then in each enclosing one. */
function resolveUserType(name: string, chain: Scope[]): string {
  const [first = '', ...rest] = name.split('::');
  for (const scope of chain) {
    let found = scope.type.types?.[first];
    const path = [...scope.path, upperCamel(first)];
    for (const part of rest) {
      found = found?.types?.[part];
      path.push(upperCamel(part));
    }
    if (found !== undefined) return path.join('.');
  }
  throw new Error(`unknown type "${name}" (imports are not supported; declare it under types:)`);
}

function docLines(doc: string | undefined, indent: string): string[] {
  if (doc === undefined || doc.trim() === '') return [];
  const text = doc.trim().replaceAll('*/', '*\\/').split('\n');
  return [`${indent}/**`, ...text.map((line) => `${indent} * ${line}`.trimEnd()), `${indent} */`];
}
