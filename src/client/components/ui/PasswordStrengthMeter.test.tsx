import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PasswordStrengthMeter } from "./PasswordStrengthMeter";

const meter = () => screen.getByTestId("password-strength");

describe("PasswordStrengthMeter", () => {
  it("keeps the last verdict while the next password's estimate is made, and says it is estimating", async () => {
    const { rerender } = render(<PasswordStrengthMeter password="Sourire-Sain-2026" />);
    await waitFor(() => expect(meter()).toHaveAttribute("data-state", "ready"));
    expect(meter()).toHaveTextContent("Très robuste");
    // A key more: its estimate is not in yet; the verdict does not fall back to the rule's "Correct".
    rerender(<PasswordStrengthMeter password="Sourire-Sain-2026!" />);
    expect(meter()).toHaveAttribute("data-state", "estimating");
    expect(meter()).toHaveTextContent("Très robuste");
    await waitFor(() => expect(meter()).toHaveAttribute("data-state", "ready"));
    // A common password: the verdict of its own estimate once in.
    rerender(<PasswordStrengthMeter password="Password1!" />);
    await waitFor(() => expect(meter()).toHaveAttribute("data-state", "ready"));
    expect(meter()).toHaveTextContent("Trop faible");
    expect(meter()).toHaveTextContent(/trop courant/);
  });
});
