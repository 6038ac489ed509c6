// Per-grammar facts the mutation families need: which node types are operators, calls, literals and scopes.
import { go, java } from './compiledProfiles';
import { forGrammar } from './grammars';
import type { GrammarName } from './grammars';
import { javascript, python } from './scriptProfiles';
import type { SyntaxProfile } from './profileTypes';

/** The profile for a grammar; TypeScript and TSX are JavaScript with types, which the families never touch. */
export function profileFor(grammar: GrammarName): SyntaxProfile {
  return forGrammar(grammar, { javascript, python, java, go });
}
