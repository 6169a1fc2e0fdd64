import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  evaluateModule,
  inlineConstants,
  inlineContractConstants,
  type ModuleValues,
} from './inline-constants';

const values: ModuleValues = {
  MESSAGES: { greeting: 'Say "hi"', count: 3, on: true, nested: { a: 1 }, list: ['x'] },
  LIMITS: { max: 5 },
  CATEGORIES: ['Books', 'Bikes'],
  lowerCase: { max: 7 },
  TABLE_FN: Object.assign(() => 1, { max: 9 }),
};

describe('inlining contract constants', () => {
  it('replaces reads of known string, number and boolean entries by their literal value', () => {
    const code = [
      "import { MESSAGES, LIMITS } from '@campus/contract';",
      'const a = MESSAGES.greeting;',
      'const b = MESSAGES.count + LIMITS.max;',
      'if (MESSAGES.on) run(MESSAGES.greeting);',
    ].join('\n');
    expect(inlineConstants(code, values)).toBe(
      [
        "import { MESSAGES, LIMITS } from '@campus/contract';",
        'const a = "Say \\"hi\\"";',
        'const b = 3 + 5;',
        'if (true) run("Say \\"hi\\"");',
      ].join('\n'),
    );
  });

  it('leaves unknown keys, computed reads, calls, objects and other owners of the name alone', () => {
    const code = [
      "import { MESSAGES } from '@campus/contract';",
      'const a = MESSAGES.missing;',
      'const b = MESSAGES[key];',
      'const c = MESSAGES.format(1);',
      'const d = MESSAGES.nested;',
      'const e = MESSAGES.list;',
      'const f = other.MESSAGES.greeting;',
      'const g = MESSAGES.greetingSuffix;',
      'const h = MESSAGES;',
    ].join('\n');
    expect(inlineConstants(code, values)).toBeNull();
  });

  it('only inlines upper-case plain-object tables imported under their own name', () => {
    const code = [
      "import { LIMITS as L, CATEGORIES, lowerCase, TABLE_FN, UNKNOWN } from '@campus/contract';",
      'use(L.max, LIMITS.max, CATEGORIES.length, lowerCase.max, TABLE_FN.max, UNKNOWN.max);',
    ].join('\n');
    expect(inlineConstants(code, values)).toBeNull();
  });

  it('ignores tables imported from anywhere but the contract', () => {
    const code = "import { MESSAGES } from './messages';\nconst a = MESSAGES.greeting;";
    expect(inlineConstants(code, values)).toBeNull();
  });
});

describe('the inline-constants plugin', () => {
  const plugin = inlineContractConstants(() => values);
  // Both hooks are plain functions that do not use `this`.
  const hooks = plugin as unknown as {
    buildStart(): void;
    transform(code: string, id: string): { code: string } | null;
  };
  const code = "import { LIMITS } from '@campus/contract';\nconst max = LIMITS.max;";

  it('inlines the values it loads at the start of the build, in application modules only', () => {
    hooks.buildStart();
    expect(hooks.transform(code, '/app/src/page.tsx')?.code).toBe(
      "import { LIMITS } from '@campus/contract';\nconst max = 5;",
    );
    expect(hooks.transform(code, '/app/node_modules/lib/index.js')).toBeNull();
    expect(hooks.transform(code, '/app/src/style.css')).toBeNull();
  });

  it("reads the real contract's tables", () => {
    const contract = evaluateModule(path.resolve(import.meta.dirname, '../../contract/src/index.ts'));
    const real =
      "import { LIMITS, MESSAGES } from '@campus/contract';\nuse(LIMITS.passwordMin, MESSAGES.giveAllDetails);";
    const limits = contract.LIMITS as Record<string, number>;
    const messages = contract.MESSAGES as Record<string, string>;
    expect(inlineConstants(real, contract)).toBe(
      `import { LIMITS, MESSAGES } from '@campus/contract';\nuse(${limits.passwordMin}, ${JSON.stringify(messages.giveAllDetails)});`,
    );
    expect(typeof limits.passwordMin).toBe('number');
    expect(typeof messages.giveAllDetails).toBe('string');
  });
});
