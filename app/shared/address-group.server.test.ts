import { describe, expect, it } from "vitest";
import { addressGroup } from "./address-group.server";

/** The unit the sign-in limits count a client address by: an IPv4 address, or an IPv6 /64. */
describe("addressGroup", () => {
  it("keeps an IPv4 address as it is", () => {
    expect(addressGroup("203.0.113.5")).toBe("203.0.113.5");
    expect(addressGroup(" 203.0.113.5 ")).toBe("203.0.113.5");
  });

  it("reads an IPv4-mapped IPv6 address as the IPv4 address", () => {
    expect(addressGroup("::ffff:203.0.113.5")).toBe("203.0.113.5");
    expect(addressGroup("::FFFF:203.0.113.5")).toBe("203.0.113.5");
    expect(addressGroup("::ffff:cb00:7105")).toBe("203.0.113.5");
    expect(addressGroup("0:0:0:0:0:ffff:cb00:7105")).toBe("203.0.113.5");
  });

  it("groups an IPv6 address by its /64, however it is written", () => {
    const group = addressGroup("2001:db8:1:2::1");
    expect(group).toBe("2001:db8:1:2::/64");
    for (const ip of [
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:0DB8:0001:0002:0:0:0:9",
      "2001:db8:1:2:a:b:c:d",
      "2001:db8:1:2:a:b:10.0.0.1",
      "[2001:db8:1:2::7]",
    ])
      expect(addressGroup(ip)).toBe(group);
    expect(addressGroup("2001:db8:1:3::1")).not.toBe(group);
    expect(addressGroup("::1")).toBe("0:0:0:0::/64");
    expect(addressGroup("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("keeps anything else as written, in lower case", () => {
    expect(addressGroup("Not-An-Address")).toBe("not-an-address");
    expect(addressGroup("")).toBe("");
  });
});
