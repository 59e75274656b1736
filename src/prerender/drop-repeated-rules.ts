// Build-time only (the prerender step, in Node).
import postcss, { type ChildNode, type Container } from 'postcss';

/** A node's place in the sheet: the at-rules around it (`@layer mantine`, `@media …`). */
function contextOf(node: ChildNode): string {
  const outer: string[] = [];
  for (
    let parent: postcss.Node | undefined = node.parent as postcss.Node | undefined;
    parent && parent.type !== 'root';
    parent = parent.parent as postcss.Node | undefined
  ) {
    if (parent.type === 'atrule') {
      const atRule = parent as postcss.AtRule;
      outer.unshift(`@${atRule.name} ${atRule.params}`);
    }
  }
  return outer.join(' > ');
}

/**
 * `css` without the earlier copy of any rule that appears again, word for word, in the same
 * at-rules. A page's critical rules come from several stylesheets that each hold Mantine's
 * global rules (the first screen's part of Mantine and the whole of it), so the inlined sheet
 * would carry them twice. Dropping the earlier copy never changes what applies: a rule and its
 * later copy have the same selectors and specificity, so the later one always wins over it.
 * Empty at-rules left behind go too.
 */
export function dropRepeatedRules(css: string): string {
  const root = postcss.parse(css);
  const last = new Map<string, ChildNode>();
  root.walk((node) => {
    const keyframes = (n: postcss.Node | undefined) =>
      n?.type === 'atrule' && (n as postcss.AtRule).name.endsWith('keyframes');
    // A keyframes block is one unit: the steps inside it are not rules of the page.
    if (keyframes(node.parent)) return;
    if (node.type !== 'rule' && !keyframes(node)) return;
    const key = `${contextOf(node)} | ${node.toString()}`;
    last.get(key)?.remove();
    last.set(key, node);
  });
  const prune = (container: Container) => {
    for (const child of [...(container.nodes ?? [])]) {
      if (child.type !== 'atrule') continue;
      const atRule = child as postcss.AtRule;
      if (!atRule.nodes) continue;
      prune(atRule);
      if (atRule.nodes.length === 0) atRule.remove();
    }
  };
  prune(root);
  return root.toString();
}
