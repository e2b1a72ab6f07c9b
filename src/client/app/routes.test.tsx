import { Children, isValidElement, type ReactElement, type ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { APP_ROUTE_PATTERNS, isAppPath } from "../../shared/routes";
import { AppRoutes } from "./routes";

/** Every full path declared by <Route path> / <Route index> in the client's route table. */
function declaredPaths(node: ReactNode, parent = ""): string[] {
  const paths: string[] = [];
  Children.forEach(node, (child) => {
    if (!isValidElement(child)) return;
    const props = (child as ReactElement<{ path?: string; index?: boolean; children?: ReactNode }>).props;
    let full = parent;
    if (props.path) full = props.path.startsWith("/") ? props.path : `${parent}/${props.path}`;
    if (props.index || props.path) paths.push(full || "/");
    if (props.children) paths.push(...declaredPaths(props.children, full));
  });
  return paths;
}

describe("the server's list of the client's pages (src/shared/routes.ts)", () => {
  const paths = declaredPaths(AppRoutes());

  it("reads the route table", () => {
    expect(paths).toContain("/patient/request/:id");
    expect(paths).toContain("/*");
    expect(paths.length).toBeGreaterThan(30);
  });

  it("covers every <Route path> of the client, so that no page answers 404", () => {
    const missing = paths.filter(
      (p) => !p.endsWith("*") && !(APP_ROUTE_PATTERNS as readonly string[]).includes(p),
    );
    expect(missing).toEqual([]);
  });

  it("lists no page the client does not have", () => {
    const extra = APP_ROUTE_PATTERNS.filter((p) => !paths.includes(p));
    expect(extra).toEqual([]);
    expect(isAppPath("/nimporte-quoi")).toBe(false);
  });
});
