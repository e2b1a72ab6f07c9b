import { Tabs as TabsPrimitive } from "radix-ui";
import { withClasses } from "./withClasses";

export const Tabs = TabsPrimitive.Root;

export const TabsList = withClasses(
  TabsPrimitive.List,
  "inline-flex flex-wrap gap-1 rounded-ui bg-slate-100 p-1 text-slate-700",
);

export const TabsTrigger = withClasses(
  TabsPrimitive.Trigger,
  "rounded-md px-3 py-1.5 text-sm font-medium hover:text-slate-900",
  "data-[state=active]:bg-white data-[state=active]:text-brand-800 data-[state=active]:shadow-sm",
);

export const TabsContent = withClasses(TabsPrimitive.Content, "mt-4");
