import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { UpdateQueryNode } from 'kysely';

/**
 * Stands for a claim whose choice of rows was made before another worker's claim committed: the
 * claim statement's WITH list (the rows it chose) is replaced by `chosen`, so its UPDATE alone
 * decides whether the lease may still be taken. On either database that moment cannot be reached
 * from outside one statement, so the choice is fixed instead of raced.
 */
export class ChosenEarlier implements KyselyPlugin {
  constructor(private readonly chosen: OperationNode) {}

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (!UpdateQueryNode.is(node) || !node.with) return node;
    const expressions = node.with.expressions.map((cte) => ({ ...cte, expression: this.chosen }));
    return { ...node, with: { ...node.with, expressions } };
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}
