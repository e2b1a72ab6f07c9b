import { describe, expect, it } from "vitest";
import { guardDecision, homePathFor, loginPathFor, mayEnterArea } from "./redirects";

const patient = { role: "patient", is_admin: false };
const dentist = { role: "dentist", is_admin: false };
const admin = { role: "patient", is_admin: true };
const unknown = { role: "chef", is_admin: false };

describe("homePathFor", () => {
  it("sends each role to its dashboard, admins first", () => {
    expect(homePathFor(patient, "login")).toBe("/patient/dashboard");
    expect(homePathFor(dentist, "login")).toBe("/dentist/dashboard");
    expect(homePathFor(admin, "login")).toBe("/admin/dashboard");
    expect(homePathFor({ role: "dentist", is_admin: true }, "index")).toBe("/admin/dashboard");
  });

  it("sends an unknown role to /choose-role from login and to /signup from /index", () => {
    expect(homePathFor(unknown, "login")).toBe("/choose-role");
    expect(homePathFor(unknown, "index")).toBe("/signup");
    expect(homePathFor({ role: null, is_admin: false }, "login")).toBe("/choose-role");
  });

  it("sends a signed-out visitor to / from /index and to /login otherwise", () => {
    expect(homePathFor(null, "index")).toBe("/");
    expect(homePathFor(undefined, "login")).toBe("/login");
  });
});

describe("guardDecision", () => {
  it("sends signed-out visitors to the area's login page", () => {
    expect(guardDecision(null, "patient")).toEqual({ allow: false, redirectTo: "/login" });
    expect(guardDecision(null, "dentist")).toEqual({ allow: false, redirectTo: "/dentist/login" });
    expect(guardDecision(undefined, "admin")).toEqual({ allow: false, redirectTo: "/admin/login" });
    expect(loginPathFor("dentist")).toBe("/dentist/login");
  });

  it("lets the matching role in and sends the others to /", () => {
    expect(guardDecision(patient, "patient")).toEqual({ allow: true });
    expect(guardDecision(dentist, "dentist")).toEqual({ allow: true });
    expect(guardDecision(dentist, "patient")).toEqual({ allow: false, redirectTo: "/" });
    expect(guardDecision(patient, "dentist")).toEqual({ allow: false, redirectTo: "/" });
    expect(guardDecision(unknown, "patient")).toEqual({ allow: false, redirectTo: "/" });
  });

  it("admits only is_admin to the admin area, whatever the role", () => {
    expect(guardDecision(admin, "admin")).toEqual({ allow: true });
    expect(guardDecision(patient, "admin")).toEqual({ allow: false, redirectTo: "/" });
    expect(guardDecision(dentist, "admin")).toEqual({ allow: false, redirectTo: "/" });
    expect(mayEnterArea({ role: "patient", is_admin: "yes" as unknown as boolean }, "admin")).toBe(false);
  });
});
