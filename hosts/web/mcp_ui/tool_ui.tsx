/** @jsxImportSource react */
/** @jsxImportSourceTypes @types/react */
/**
 * The tool UI component, as step 5 of the `@mcp-ui/client` Client SDK Walkthrough writes it (`src/ToolUI.tsx`
 * there): it calls the tool when its input is set, and renders `AppRenderer` with the client, the tool name,
 * the sandbox proxy, the input and the result, and the walkthrough's handlers: links open in a new tab,
 * messages and size changes are logged to the console, errors replace the View with an error line.
 *
 * One choice the walkthrough leaves open is taken from the package's own example (`AppRenderer`'s type
 * declarations, node_modules/@mcp-ui/client/dist/src/components/AppRenderer.d.ts): the sandbox proxy lives on
 * an origin of its own (the walkthrough serves it from the page's origin, and its production tip says to use a
 * dedicated one).
 *
 * @module
 */
import { useEffect, useRef, useState } from "react";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AppRenderer, type AppRendererHandle } from "@mcp-ui/client";

/** What {@linkcode ToolUI} renders. */
export interface ToolUIProps {
  readonly client: Client;
  readonly toolName: string;
  readonly toolInput: Record<string, unknown>;
  /** The sandbox proxy page (the walkthrough computes it in place). */
  readonly sandboxUrl: string;
}

/** One tool's UI: the call, then its View through `AppRenderer`. */
export function ToolUI({ client, toolName, toolInput, sandboxUrl }: ToolUIProps) {
  // deno-lint-ignore no-explicit-any -- the walkthrough's own type for the result
  const [toolResult, setToolResult] = useState<any>(null);
  const [error, setError] = useState<string | null>(null);
  const appRef = useRef<AppRendererHandle>(null);

  useEffect(() => {
    if (!toolInput) return;
    const callTool = async () => {
      try {
        const result = await client.callTool({ name: toolName, arguments: toolInput });
        setToolResult(result);
      } catch (err) {
        setError(err instanceof Error ? err.message : String(err));
      }
    };
    callTool();
  }, [client, toolName, toolInput]);

  if (error) {
    return <div style={{ color: "red" }}>Error: {error}</div>;
  }

  return (
    <div style={{ width: "100%", height: "600px" }}>
      <AppRenderer
        ref={appRef}
        client={client}
        toolName={toolName}
        sandbox={{ url: new URL(sandboxUrl) }}
        toolInput={toolInput}
        toolResult={toolResult}
        // deno-lint-ignore require-await -- the walkthrough's handlers are async
        onOpenLink={async ({ url }) => {
          globalThis.open(url, "_blank");
          return { isError: false };
        }}
        // deno-lint-ignore require-await -- the walkthrough's handlers are async
        onMessage={async (params) => {
          console.log("Message from UI:", params);
          return { isError: false };
        }}
        onSizeChanged={(params) => {
          console.log("Size changed:", params);
        }}
        onError={(error) => {
          console.error("UI Error:", error);
          setError(error.message);
        }}
      />
    </div>
  );
}
