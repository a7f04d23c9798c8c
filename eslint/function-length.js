// A local ESLint rule: `local/max-logic-lines`, the lines of logic of a function.
//
// A line counts when it holds a token of logic: one whose nearest enclosing function, object or
// array literal, template literal or JSX element is a function. Lines that are only data (object
// and array literals), markup (JSX, template literals) or comments are left out, so a long page
// of prose or a table of constants is not "long", while the logic of a nested callback or method
// counts toward every function around it, as a reader has to hold it too. Used with ESLint's
// `max-lines-per-function`, which caps a function's lines in all (docs/decisions.md, "Functions
// a reviewer can hold in mind"). Tested in packages/lint.

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
const MARKUP = new Set([
  'ObjectExpression',
  'ArrayExpression',
  'TemplateLiteral',
  'JSXElement',
  'JSXFragment',
]);

/** The tokens whose nearest enclosing function/markup node is a function, in source order. */
function logicTokens(sourceCode, nodes) {
  const sorted = [...nodes].sort((a, b) => a.range[0] - b.range[0] || b.range[1] - a.range[1]);
  const stack = [];
  const logic = [];
  let next = 0;
  for (const token of sourceCode.ast.tokens) {
    while (stack.length && stack.at(-1).range[1] <= token.range[0]) stack.pop();
    while (next < sorted.length && sorted[next].range[0] <= token.range[0]) {
      const node = sorted[next++];
      if (node.range[1] > token.range[0]) {
        while (stack.length && stack.at(-1).range[1] <= node.range[0]) stack.pop();
        stack.push(node);
      }
    }
    const owner = stack.at(-1);
    if (owner && FUNCTIONS.has(owner.type)) logic.push(token);
  }
  return logic;
}

/** The index of the first token starting at or after `offset`. */
function firstFrom(tokens, offset) {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid].range[0] < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many lines of `fn` hold a token of logic. */
function countLogicLines(tokens, fn) {
  const lines = new Set();
  for (let i = firstFrom(tokens, fn.range[0]); i < tokens.length; i++) {
    if (tokens[i].range[1] > fn.range[1]) break;
    lines.add(tokens[i].loc.start.line);
  }
  return lines.size;
}

/** The name a report gives a function: its own, its variable's, its property's or its key's. */
function nameOf(fn) {
  if (fn.id) return fn.id.name;
  const parent = fn.parent;
  const key = parent?.type === 'VariableDeclarator' ? parent.id : parent?.key;
  return key?.type === 'Identifier' ? key.name : 'function';
}

export const maxLogicLines = {
  meta: {
    type: 'suggestion',
    docs: { description: 'Limit the lines of logic of a function (data and markup aside).' },
    schema: [
      {
        type: 'object',
        properties: { max: { type: 'integer', minimum: 1 } },
        additionalProperties: false,
      },
    ],
    messages: {
      tooLong:
        '{{name}} has {{count}} lines of logic (max {{max}}): split it into named steps a reader follows top-down.',
    },
  },
  create(context) {
    const max = context.options[0]?.max ?? 80;
    const nodes = [];
    const functions = [];
    const collect = (node) => {
      nodes.push(node);
      if (FUNCTIONS.has(node.type)) functions.push(node);
    };
    const visitors = Object.fromEntries([...FUNCTIONS, ...MARKUP].map((type) => [type, collect]));
    return {
      ...visitors,
      'Program:exit'() {
        if (functions.length === 0) return;
        const tokens = logicTokens(context.sourceCode, nodes);
        for (const fn of functions) {
          const count = countLogicLines(tokens, fn);
          if (count <= max) continue;
          const data = { name: nameOf(fn), count, max };
          context.report({ node: fn, loc: fn.loc.start, messageId: 'tooLong', data });
        }
      },
    };
  },
};

export default { rules: { 'max-logic-lines': maxLogicLines } };
