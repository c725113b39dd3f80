#!/usr/bin/env python3
"""Compare every AppleShadow declaration with the real iPhoneOS SDK's (issue 21, item 2).

usage: scripts/shadow-vs-sdk.py [SDK_DIR] [--markdown] [--keep DIR]
       (SDK_DIR defaults to $IOS_SDK; run from anywhere, it finds the repository from its own path)

For each framework module under Sources/AppleShadow/<Framework>/ (its Backend/ folder is our
plumbing and is skipped), the toolchain's `swift-synthesize-interface` prints the Swift interface
of that framework as Swift sees it in the SDK (clang modules, with -include-submodules); the
framework's Swift overlay (.swiftinterface), where the SDK has one, is read as a second source.
Each shadow declaration (the same notion as Tests/BackgroundTrackerTests/ShadowDeclarationTests:
a line with optional attributes and modifiers then a declaration keyword, not private, fileprivate
or internal) is matched with the SDK declaration of the same name (and argument labels) in the same
type, and their normalized signatures are compared:
  - parameter labels and types, default arguments (present or not), return type, optionality,
    `throws`, `async`;
  - `open` / `public` / `final`, `static` vs `class`, `weak`, `let` vs `var`, get-only vs settable;
  - isolation: `@MainActor` on the member or inherited from its type, `nonisolated`;
  - for types: superclass, raw type, `Sendable` conformance (explicit, `@unchecked`, or implied by a
    global actor, by `Error`, or, for imported C structs, by the importer);
  - for enum cases: the raw value; `@available` introduced versions where the shadow states one.
It prints one row per declaration (declaration | matched / changed: what | SDK text) and totals, and
exits 1 when any declaration differs.

Nothing is written into the repository: interfaces and the module cache go to a temporary folder
(removed at the end) or --keep DIR (kept, and reused by later runs). Needed: the SDK folder and the Swift toolchain, plus the
Dispatch and os API notes an Apple toolchain carries and the Linux one lacks (without them the
SDK's Foundation overlay does not load and `Date` prints as `NSDate`): $IOS_APINOTES, by default
../shared/tools/ios-sdk/apinotes beside the repository, the folder typecheck.sh uses; read there,
never copied. A first run builds the SDK's modules (minutes); later runs with --keep take seconds.

Limits (read the table with these in mind):
  - API newer than the SDK (iOS 17: CLBackgroundActivitySession; iOS 18: CLServiceSession and its
    AuthorizationRequirement, both sessions' Diagnostic and Diagnostics) cannot be synthesized from a 16.5 SDK. Those declarations are compared
    with APPLE_PAGES below: the declaration and availability Apple's documentation pages state,
    copied by hand (URL given per entry). Conformances a page's excerpt did not show are "not
    checkable".
  - Foundation: the shadow's Foundation additions exist only because swift-corelibs-foundation
    lacks them (or marks them unavailable); they are compared with the SDK's Foundation, but the
    types they extend (ProcessInfo, URLSessionConfiguration, NSNotification.Name) are corelibs'
    own, so their isolation and Sendable conformance are not the shadow's and are not compared.
  - Imported Objective-C constants print as `class let`, which Swift source cannot declare in a
    class; the shadow's `static let` is counted as the same spelling. Such constants are
    nonisolated even inside a @MainActor class (the importer does not infer isolation for them;
    checked with a probe against the 16.5 SDK).
  - `optional` protocol requirements (Objective-C only) cannot be declared without the Objective-C
    runtime: a shadow requirement whose SDK counterpart is `optional` is reported as "not
    checkable" for that attribute only.
  - Members the shadow adds in an extension of a type it does not declare (the Foundation
    additions) cannot be `open` in Swift without @objc: their open/public is "not checkable".
  - What the interface implies without printing it is taken as the SDK's: `rawValue` of a
    RawRepresentable or OptionSet struct has the type of its `init(rawValue:)` (its let/var is not
    compared), an NSObject subclass inherits `init()`, and an imported NS_ERROR_ENUM struct has
    `code` and `init(_:userInfo:)` from Foundation's _BridgedStoredNSError; conforming to `Error`
    implies `Sendable`.
  - Default argument values are compared for presence, not value; designated vs `convenience`
    initializers, macros, @objc names, doc comments, deprecations and conformances other than
    Sendable (NSCopying, NSSecureCoding...) are not compared; nor are members the shadow does not
    declare.
  - The folder /tmp/sdk/iPhoneOS16.5.sdk this project uses says iOS 16.4 in its SDKSettings.json;
    the table states both.
  - The 16.5 SDK predates the Swift 6 annotations Apple added in later SDKs (for example
    `nonisolated` on some UIApplication members); the SDK given on the command line is the
    reference, as issue 21 asks. docs/shadow-vs-sdk.md notes where Apple's current pages differ.
"""

import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHADOW = os.path.join(REPO, "Sources", "AppleShadow")
FRAMEWORKS = ["UIKit", "CoreLocation", "CoreMotion", "BackgroundTasks", "UserNotifications", "AVFAudio", "Foundation",
              "MetricKit", "Security"]

# Declarations the SDK folder is too old to have, as Apple's documentation pages state them.
# key: "Container.name" as the checker names declarations; value: (declaration, availability, URL).
APPLE_PAGES = {
    "CLBackgroundActivitySession": (
        "@available(iOS 17.0, macCatalyst 17.0, visionOS 1.0, watchOS 10.0, *) "
        "final class CLBackgroundActivitySession: Sendable",
        "https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3"),
    "CLBackgroundActivitySession.init()": (
        "init()",
        "https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/init()"),
    "CLBackgroundActivitySession.invalidate()": (
        "final func invalidate()",
        "https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/invalidate()"),
    "CLServiceSession": (
        "@available(iOS 18.0, macCatalyst 18.0, tvOS 18.0, visionOS 1.0, watchOS 11.0, *) "
        "final class CLServiceSession",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n"),
    "CLServiceSession.AuthorizationRequirement": (
        "enum AuthorizationRequirement: Equatable, Hashable",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement"),
    "CLServiceSession.AuthorizationRequirement.always": (
        "case always",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement/always"),
    "CLServiceSession.AuthorizationRequirement.none": (
        "case none",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement/none"),
    "CLServiceSession.AuthorizationRequirement.whenInUse": (
        "case whenInUse",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement/wheninuse"),
    "CLServiceSession.init(authorization:)": (
        "init(authorization: CLServiceSession.AuthorizationRequirement)",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/init(authorization:)"),
    "CLServiceSession.invalidate()": (
        "final func invalidate()",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/invalidate()"),
    # iOS 18 diagnostics (issue 40): declarations as Apple's pages give them; the iterators'
    # `struct Iterator` and `next()` as the iOS 27.1 SDK's interface prints them (onestack.dev's
    # rendering of it; Apple's page excerpts list only the sequence's makeAsyncIterator()).
    "CLServiceSession.Diagnostic": (
        "struct Diagnostic",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic"),
    "CLServiceSession.Diagnostic.alwaysAuthorizationDenied": (
        "var alwaysAuthorizationDenied: Bool { get }",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/alwaysauthorizationdenied"),
    "CLServiceSession.Diagnostic.authorizationDenied": (
        "var authorizationDenied: Bool { get }",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/authorizationdenied"),
    "CLServiceSession.Diagnostic.authorizationDeniedGlobally": (
        "var authorizationDeniedGlobally: Bool { get }",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/authorizationdeniedglobally"),
    "CLServiceSession.Diagnostic.authorizationRequestInProgress": (
        "var authorizationRequestInProgress: Bool { get }",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/authorizationrequestinprogress"),
    "CLServiceSession.Diagnostic.authorizationRestricted": (
        "var authorizationRestricted: Bool { get }",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/authorizationrestricted"),
    "CLServiceSession.Diagnostic.fullAccuracyDenied": (
        "var fullAccuracyDenied: Bool { get }",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/fullaccuracydenied"),
    "CLServiceSession.Diagnostic.insufficientlyInUse": (
        "var insufficientlyInUse: Bool { get }",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/insufficientlyinuse"),
    "CLServiceSession.Diagnostic.serviceSessionRequired": (
        "var serviceSessionRequired: Bool { get }",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/servicesessionrequired"),
    "CLServiceSession.Diagnostics": (
        "final class Diagnostics",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostics-swift.class"),
    "CLServiceSession.Diagnostics.makeAsyncIterator()": (
        "final func makeAsyncIterator() -> CLServiceSession.Diagnostics.Iterator",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostics-swift.class/makeasynciterator()"),
    "CLServiceSession.Diagnostics.Iterator": (
        "struct Iterator",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostics-swift.class/iterator"),
    "CLServiceSession.Diagnostics.Iterator.next()": (
        "mutating func next() async throws -> CLServiceSession.Diagnostics.Element?",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostics-swift.class/iterator/next()"),
    "CLServiceSession.diagnostics": (
        "final var diagnostics: CLServiceSession.Diagnostics { get }",
        "https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostics-swift.property"),
    "CLBackgroundActivitySession.Diagnostic": (
        "@available(iOS 18.0, macCatalyst 18.0, visionOS 1.0, watchOS 11.0, *) struct Diagnostic",
        "https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostic"),
    "CLBackgroundActivitySession.Diagnostic.authorizationDenied": (
        "var authorizationDenied: Bool { get }",
        "https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostic/authorizationdenied"),
    "CLBackgroundActivitySession.Diagnostic.authorizationDeniedGlobally": (
        "var authorizationDeniedGlobally: Bool { get }",
        "https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostic/authorizationdeniedglobally"),
    "CLBackgroundActivitySession.Diagnostic.authorizationRequestInProgress": (
        "var authorizationRequestInProgress: Bool { get }",
        "https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostic/authorizationrequestinprogress"),
    "CLBackgroundActivitySession.Diagnostic.authorizationRestricted": (
        "var authorizationRestricted: Bool { get }",
        "https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostic/authorizationrestricted"),
    "CLBackgroundActivitySession.Diagnostic.insufficientlyInUse": (
        "var insufficientlyInUse: Bool { get }",
        "https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostic/insufficientlyinuse"),
    "CLBackgroundActivitySession.Diagnostic.serviceSessionRequired": (
        "var serviceSessionRequired: Bool { get }",
        "https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostic/servicesessionrequired"),
    "CLBackgroundActivitySession.Diagnostics": (
        "@available(iOS 18.0, macCatalyst 18.0, visionOS 1.0, watchOS 11.0, *) final class Diagnostics",
        "https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostics-swift.class"),
    "CLBackgroundActivitySession.Diagnostics.makeAsyncIterator()": (
        "final func makeAsyncIterator() -> CLBackgroundActivitySession.Diagnostics.Iterator",
        "https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostics-swift.class/makeasynciterator()"),
    "CLBackgroundActivitySession.Diagnostics.Iterator": (
        "struct Iterator",
        "https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostics-swift.class/iterator"),
    "CLBackgroundActivitySession.Diagnostics.Iterator.next()": (
        "mutating func next() async throws -> CLBackgroundActivitySession.Diagnostics.Element?",
        "https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostics-swift.class/iterator/next()"),
    "CLBackgroundActivitySession.diagnostics": (
        "@available(iOS 18.0, macCatalyst 18.0, visionOS 1.0, watchOS 11.0, *) final var diagnostics: CLBackgroundActivitySession.Diagnostics { get }",
        "https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3/diagnostics-swift.property"),
}
# What those pages' excerpts do not show (the Sendable relationship of CLServiceSession's page and of
# the requirement enum is listed only partly): reported as "not checkable" instead of guessed.
PAGE_UNKNOWN_SENDABLE = {"CLServiceSession", "CLServiceSession.Diagnostic", "CLServiceSession.Diagnostics",
                         "CLServiceSession.Diagnostics.Iterator", "CLBackgroundActivitySession.Diagnostic",
                         "CLBackgroundActivitySession.Diagnostics", "CLBackgroundActivitySession.Diagnostics.Iterator"}

MODIFIERS = {"public", "open", "nonisolated", "static", "class", "final", "convenience", "override", "weak",
             "optional", "required", "dynamic", "mutating", "unowned(unsafe)", "unowned", "indirect"}
KEYWORDS = ["func", "var", "let", "init", "class", "struct", "enum", "protocol", "typealias", "case", "extension"]
TYPE_KEYWORDS = {"class", "struct", "enum", "protocol", "extension"}
KNOWN_PROTOCOLS = {"Sendable", "Hashable", "Equatable", "RawRepresentable", "OptionSet", "NSObjectProtocol",
                   "NSCopying", "NSSecureCoding", "NSMutableCopying", "NSCoding", "CustomStringConvertible",
                   "SetAlgebra", "CaseIterable", "Codable", "Error", "AsyncSequence", "AsyncIteratorProtocol"}
RAW_TYPES = {"Int", "Int32", "UInt", "UInt32", "Int64", "UInt64", "String", "Int8", "UInt8", "Int16", "UInt16"}


# ---------------------------------------------------------------------------------------- parsing

def strip_strings(text):
    return re.sub(r'"(\\.|[^"\\])*"', '""', text)


def top_level_split(text, sep):
    """Split at `sep` characters outside (), [], <> and string literals."""
    parts, depth, cur = [], 0, ""
    for i, ch in enumerate(text):
        if ch in "([<":
            depth += 1
        elif ch in ")]>" and not (ch == ">" and text[i - 1:i] == "-"):
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return parts


def top_level_index(text, target):
    depth = 0
    for i, ch in enumerate(text):
        if depth == 0 and text.startswith(target, i):
            if target == "=" and (text[i + 1:i + 2] == "=" or text[i - 1:i] in "!<>=-"):
                continue
            return i
        if ch in "([<":
            depth += 1
        elif ch in ")]>" and not (ch == ">" and text[i - 1:i] == "-"):  # `->` closes nothing
            depth -= 1
    return -1


def leading_attributes(text):
    """(attributes, rest) for `@A @B(x) rest`."""
    attrs = []
    text = text.strip()
    while text.startswith("@"):
        m = re.match(r"@\w+", text)
        end = m.end()
        if text[end:end + 1] == "(":
            depth = 0
            for i in range(end, len(text)):
                depth += text[i] == "("
                depth -= text[i] == ")"
                if depth == 0:
                    end = i + 1
                    break
        attrs.append(text[:end])
        text = text[end:].strip()
    return attrs, text


def is_declaration(line):
    """ShadowDeclarationTests.isDeclaration, in Python."""
    words = [w for w in line.split(" ") if w and not w.endswith("(set)")]
    while words and words[0].startswith("@"):
        words.pop(0)
    mods = {"public", "open", "nonisolated", "static", "class", "final", "convenience", "override", "weak"}
    if any(w in ("private", "fileprivate", "internal") for w in words):
        return False
    while words and words[0] in mods and len(words) > 1:
        if words[0] == "class" and words[1] not in ("func", "var", "let"):
            break
        words.pop(0)
    if not words:
        return False
    kw = words[0]
    return any(kw == k or kw.startswith(k + "(") or kw.startswith(k + "<")
               for k in ["func", "var", "let", "init", "class", "struct", "enum", "protocol", "typealias", "case"])


def norm_type(t):
    t = re.sub(r"\s+", " ", t.strip())
    t = t.replace("@escaping ", "")
    t = re.sub(r"\s*([(),:\[\]<>?!])\s*", r"\1", t)
    t = t.replace("->", " -> ").replace(",", ", ")
    t = re.sub(r"\bSwift\.|\bFoundation\.|\bDispatch\.", "", t)
    return t.strip()


class Decl:
    def __init__(self, kind, name, container, text, attrs, mods, source):
        self.kind, self.name, self.container, self.text = kind, name, container, text
        self.attrs, self.mods, self.source = attrs, mods, source
        self.labels, self.params, self.defaults = [], [], []
        self.ret, self.effects, self.type, self.settable = "", set(), "", False
        self.inherits, self.raw_value, self.alias = [], None, None
        self.line = None

    @property
    def key(self):
        base = f"{self.container}.{self.name}" if self.container else self.name
        if self.kind in ("func", "init"):
            return f"{base}({''.join(label + ':' for label in self.labels)})"
        return base

    def available(self):
        for a in self.attrs:
            m = re.match(r"@available\((.*)\)", a)
            if m and "introduced" not in m.group(1) and "deprecated" not in m.group(1) and \
                    "unavailable" not in m.group(1):
                return {p.split()[0]: p.split()[1] for p in [x.strip() for x in m.group(1).split(",")]
                        if len(p.split()) == 2}
            if m and "introduced:" in m.group(1):
                plat = m.group(1).split(",")[0].strip()
                intro = re.search(r"introduced: ([\d.]+)", m.group(1)).group(1)
                return {plat: intro}
        return None


def infer_type(init):
    init = init.strip()
    if init in ("true", "false"):
        return "Bool"
    if re.fullmatch(r"-?\d+", init) or re.fullmatch(r"0x[0-9a-fA-F]+", init):
        return "Int"
    if re.fullmatch(r"-?\d+\.\d+", init):
        return "Double"
    if init.startswith('"'):
        return "String"
    m = re.match(r"([A-Z][\w.]*)\(", init)
    if m:
        return m.group(1)
    m = re.match(r"([A-Z]\w*)\.(distantPast|distantFuture|now)$", init)
    if m:
        return m.group(1)
    return "?"


def parse_header(header, attrs, container, source):
    """A Decl from one declaration's text (attributes already split off, body removed)."""
    words = header.split()
    mods = []
    while words and (words[0] in MODIFIERS or re.fullmatch(r"\w+\(set\)", words[0])):
        if words[0] == "class" and len(words) > 1 and words[1] not in ("func", "var", "let"):
            break
        mods.append(words.pop(0))
    rest = " ".join(words)
    m = re.match(r"(func|var|let|init\??|class|struct|enum|protocol|typealias|case|extension)\b\s*(.*)", rest)
    if not m:
        return None
    kw, tail = m.group(1), m.group(2)
    if kw.startswith("init"):
        d = Decl("init", "init", container, header, attrs, mods, source)
        params_text, after = split_params(tail)
        fill_params(d, params_text)
        d.effects = set(re.findall(r"\b(throws|async|rethrows)\b", after))
        if kw == "init?":
            d.ret = "?"
        return d
    if kw == "func":
        m = re.match(r"([\w`]+|[^\s(<]+)", tail)
        if not m:
            return None
        nm = m.group(1)
        d = Decl("func", nm.strip("`"), container, header, attrs, mods, source)
        params_text, after = split_params(tail[len(nm):])
        fill_params(d, params_text)
        arrow = top_level_index(after, "->")
        d.effects = set(re.findall(r"\b(throws|async|rethrows)\b", after[:arrow] if arrow >= 0 else after))
        d.ret = norm_type(re.split(r"\bwhere\b", after[arrow + 2:])[0]) if arrow >= 0 else "Void"
        return d
    if kw in ("var", "let"):
        body = ""
        brace = top_level_index(tail, "{")
        if brace >= 0:
            body, tail = tail[brace:], tail[:brace]
        eq = top_level_index(tail, "=")
        init = None
        if eq >= 0:
            init, tail = tail[eq + 1:], tail[:eq]
        if ":" in tail:
            nm, ty = tail.split(":", 1)
        else:
            nm, ty = tail, infer_type(init or "")
        d = Decl("var", nm.strip().strip("`"), container, header, attrs, mods, source)
        d.type = norm_type(ty)
        if kw == "let":
            d.settable = False
        elif any(re.fullmatch(r"(internal|private|fileprivate)\(set\)", x) for x in mods):
            d.settable = False
        elif body:
            d.settable = bool(re.search(r"\bset\b|didSet|willSet", body))
        else:
            d.settable = True
        d.header_mods = mods
        d.mods = [x for x in mods if not x.endswith("(set)")]
        d.let = kw == "let"
        return d
    if kw == "case":
        eq = tail.find("=")
        nm = tail[:eq] if eq >= 0 else tail
        d = Decl("case", nm.strip().strip("`"), container, header, attrs, mods, source)
        d.raw_value = tail[eq + 1:].strip() if eq >= 0 else None
        return d
    if kw == "typealias":
        nm, _, ty = tail.partition("=")
        d = Decl("typealias", nm.strip(), container, header, attrs, mods, source)
        d.alias = norm_type(ty)
        return d
    # type declarations and extensions
    colon = tail.find(":")
    nm = (tail[:colon] if colon >= 0 else tail).strip()
    nm = re.split(r"\s+where\s+|<", nm)[0].strip()
    d = Decl(kw, nm, container, header, attrs, mods, source)
    if colon >= 0:
        inh = re.split(r"\bwhere\b", tail[colon + 1:])[0]
        d.inherits = [x.strip() for x in top_level_split(inh, ",") if x.strip()]
    return d


def split_params(text):
    text = text.strip()
    if text.startswith("<"):
        depth = 0
        for i, ch in enumerate(text):
            depth += ch == "<"
            depth -= ch == ">"
            if depth == 0:
                text = text[i + 1:]
                break
    if not text.startswith("("):
        return "", text
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return text[1:i], text[i + 1:]
    return text[1:], ""


def fill_params(d, params_text):
    for p in top_level_split(params_text, ","):
        p = p.strip()
        if not p:
            continue
        names, _, rest = p.partition(":")
        eq = top_level_index(rest, "=")
        default = eq >= 0
        ty = rest[:eq] if default else rest
        label = names.split()[0]
        d.labels.append(label)
        d.params.append(norm_type(ty))
        d.defaults.append(default)


def logical_lines(text):
    """Lines without comments, joined so that each declaration is one line; with its line number."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    out, buf, start, depth = [], "", 0, 0
    for n, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if line.startswith("//") or line.startswith("#"):
            if not buf:
                out.append((n, line if line.startswith("///") else ""))
            continue
        line = re.sub(r"\s//.*$", "", line) if "//" in strip_strings(line) else line
        if not buf:
            start = n
        buf = (buf + " " + line).strip() if buf else line
        depth += strip_strings(line).count("(") - strip_strings(line).count(")")
        if depth <= 0:
            out.append((start, buf))
            buf, depth = "", 0
    if buf:
        out.append((start, buf))
    return out


def parse_file(text, source, shadow):
    """Declarations in one file, and the attributes of the types it declares {path: attrs}."""
    decls, type_attrs = [], {}
    stack = []  # (type path, or None for a body; the depth at which it closes; the body's owner)
    depth = 0
    pending_attrs = []
    for n, line in logical_lines(text):
        if not line or line.startswith("///"):
            continue
        clean = strip_strings(line)
        opened, closed = clean.count("{"), clean.count("}")
        if stack and stack[-1][0] is None:  # inside a body: not declarations, but a var's accessors
            owner = stack[-1][2]
            if owner is not None:
                owner.body += " " + line
            depth += opened - closed
            while stack and depth < stack[-1][1]:
                stack.pop()
            continue
        container = next((p for p, _, _ in reversed(stack) if p is not None), "")
        attrs, rest = leading_attributes(line)
        if not rest:
            pending_attrs += attrs
            continue
        d = None
        considered = (is_declaration(line) or rest.startswith("extension ")) if shadow else True
        head = rest.split("{")[0].split("=")[0]
        if considered and not re.search(r"\b(private|fileprivate|internal)\b(?!\(set\))", head):
            kwd = re.match(r"(?:(?:" + "|".join(re.escape(x) for x in MODIFIERS) +
                           r"|\w+\(set\))\s+)*(init\??|func|var|let|class|struct|enum|protocol|typealias|case|"
                           r"extension)\b", rest)
            if kwd:
                header = rest
                brace = top_level_index(header, "{")
                if kwd.group(1) not in ("var", "let") and brace >= 0:
                    header = header[:brace]
                d = parse_header(header.strip(), pending_attrs + attrs, container, source)
        pending_attrs = []
        if d is not None:
            d.line = n
            d.body = ""
            if d.kind in TYPE_KEYWORDS:
                path = d.name if d.kind == "extension" else (f"{container}.{d.name}" if container else d.name)
                if d.kind != "extension":
                    type_attrs[path] = d.attrs
                    decls.append(d)
                if opened > closed:
                    stack.append((path, depth + 1, None))
                depth += opened - closed
                continue
            decls.append(d)
        if opened > closed:
            stack.append((None, depth + 1, d if d is not None and d.kind == "var" else None))
        depth += opened - closed
        while stack and depth < stack[-1][1]:
            stack.pop()
    for d in decls:  # a var whose accessors span lines: settable if it has a setter or observers
        if d.kind == "var" and d.body and not d.let and not any(
                re.fullmatch(r"(internal|private|fileprivate)\(set\)", x) for x in d.header_mods):
            d.settable = bool(re.search(r"\bset\b|didSet|willSet", d.text + " " + d.body))
    return decls, type_attrs


# -------------------------------------------------------------------------------------- the SDK

def synthesize(sdk, module, work):
    out = os.path.join(work, module + ".swift")
    if os.path.exists(out):
        return out
    res = os.path.join(work, "resource")
    if not os.path.isdir(res):
        info = subprocess.run(["swiftc", "-print-target-info"], capture_output=True, text=True, check=True).stdout
        runtime = re.search(r'"runtimeResourcePath"\s*:\s*"([^"]+)"', info).group(1)
        os.makedirs(res)
        # The toolchain's clang headers and SwiftShims, without its Linux module maps, and the
        # Dispatch and os API notes an Apple toolchain carries (read where they are, not copied).
        os.symlink(os.path.join(runtime, "clang"), os.path.join(res, "clang"))
        os.symlink(os.path.join(runtime, "shims"), os.path.join(res, "shims"))
        os.symlink(apinotes_dir(), os.path.join(res, "apinotes"))
    cmd = ["swift-synthesize-interface", "-module-name", module, "-include-submodules",
           "-target", "arm64-apple-ios17.0", "-sdk", sdk, "-resource-dir", res,
           "-module-cache-path", os.path.join(work, "cache"), "-language-mode", "6", "-o", out]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"swift-synthesize-interface failed for {module}:\n{r.stderr[-2000:]}")
    text = open(out, encoding="utf-8").read()
    # Declarations only: Security's doc comments name `dispatch_queue_t` themselves.
    if re.search(r"^(?!\s*(?:\*|//)).*(?::\s*NSDate\b|dispatch_queue_t)", text, re.M):
        os.remove(out)
        sys.exit(f"{module}: the SDK's Swift overlays did not load (NSDate or dispatch_queue_t where Swift "
                 "sees Date and DispatchQueue): are the Dispatch API notes there?")
    return out


def apinotes_dir():
    """An Apple toolchain's Dispatch and os API notes, which the Linux toolchain lacks: without them
    the SDK's Dispatch overlay, hence Foundation's, does not load and the interfaces show NSDate."""
    found = os.environ.get("IOS_APINOTES") or os.path.join(
        os.path.dirname(REPO), "shared", "tools", "ios-sdk", "apinotes")
    if not os.path.isfile(os.path.join(found, "Dispatch.apinotes")):
        sys.exit(f"no Dispatch.apinotes in {found}: set IOS_APINOTES to the folder of an Apple toolchain's "
                 "API notes (../shared/tools/ios-sdk/apinotes, README.md there)")
    return os.path.abspath(found)


def overlay(sdk, module):
    for path in (f"usr/lib/swift/{module}.swiftmodule/arm64-apple-ios.swiftinterface",
                 f"System/Library/Frameworks/{module}.framework/Modules/{module}.swiftmodule/arm64-apple-ios.swiftinterface"):
        full = os.path.join(sdk, path)
        if os.path.exists(full):
            return full
    return None


class Index:
    def __init__(self):
        self.decls, self.type_attrs = {}, {}

    def add(self, decls, type_attrs, imported):
        for d in decls:
            d.imported = imported
            self.decls.setdefault(d.key, d)
        for k, v in type_attrs.items():
            self.type_attrs.setdefault(k, v)


# ----------------------------------------------------------------------------------- comparison

def isolation(d, type_attrs, imported):
    if "nonisolated" in d.mods:
        return "nonisolated"
    if any(a.startswith("@MainActor") for a in d.attrs):
        return "@MainActor"
    if d.kind in ("class", "struct", "enum", "protocol", "typealias", "case"):
        return "nonisolated"
    if imported and d.kind == "var" and "class" in d.mods and getattr(d, "let", False):
        return "nonisolated"  # an imported constant (`class let`)
    if any(a.startswith("@MainActor") for a in type_attrs.get(d.container, [])):
        return "@MainActor"
    return "nonisolated"


def sendable(d, type_attrs, imported):
    if any(x.replace("@unchecked ", "") == "Sendable" for x in d.inherits):
        return True
    if any(x in ("Error", "Swift.Error", "CustomNSError", "LocalizedError") for x in d.inherits):
        return True  # `protocol Error: Sendable`
    if any(a.startswith("@MainActor") for a in d.attrs):
        return True
    if imported and d.kind == "struct" and not d.inherits:
        return True  # C structs of Sendable fields are imported Sendable
    return False


def superclass(d):
    if d.kind != "class" or not d.inherits:
        return None
    first = d.inherits[0]
    if first.startswith("@") or first in KNOWN_PROTOCOLS:
        return None
    return first


def relative(t, container):
    """A type name as written inside `container`: `AVAudioSession.Category` there is `Category`."""
    parts = container.split(".") if container else []
    for i in range(len(parts), 0, -1):
        prefix = ".".join(parts[:i]) + "."
        t = re.sub(r"(?<![\w.])" + re.escape(prefix) + r"(?=[A-Z])", "", t)
    return t


def compare(s, a, s_types, a_types, a_imported):
    """Differences between shadow declaration s and SDK declaration a, as short phrases."""
    diffs, unknown = [], []
    rel = lambda t, d: relative(t, d.container) if t else t
    if s.kind in ("func", "init"):
        if s.labels != a.labels:
            diffs.append(f"labels {s.labels} -> {a.labels}")
        sp = [rel(x, s) for x in s.params]
        ap = [rel(x, a) for x in a.params]
        for i, (x, y) in enumerate(zip(sp, ap)):
            if x != y:
                diffs.append(f"parameter {s.labels[i]}: {x} -> {y}")
        if s.defaults != a.defaults and len(s.defaults) == len(a.defaults):
            diffs.append(f"default arguments {s.defaults} -> {a.defaults}")
        if rel(s.ret, s) != rel(a.ret, a):
            diffs.append(f"returns {s.ret} -> {a.ret}")
        se = {e.replace("rethrows", "throws") for e in s.effects}
        ae = {e.replace("rethrows", "throws") for e in a.effects}
        if se != ae:
            diffs.append(f"effects {sorted(se) or 'none'} -> {sorted(ae) or 'none'}")
    if s.kind == "var":
        if rel(s.type, s) != rel(a.type, a):
            diffs.append(f"type {s.type} -> {a.type}")
        if s.settable != a.settable:
            diffs.append(f"{'settable' if s.settable else 'get-only'} -> {'settable' if a.settable else 'get-only'}")
        s_static = "static" in s.mods or "class" in s.mods
        a_static = "static" in a.mods or "class" in a.mods
        if s_static != a_static:
            diffs.append("static" if a_static else "instance")
        elif s_static and not (a_imported and getattr(a, "let", False)):
            sk = "class" if "class" in s.mods else "static"
            ak = "class" if "class" in a.mods else "static"
            if sk != ak:
                diffs.append(f"{sk} -> {ak}")
        if ("weak" in s.mods) != ("weak" in a.mods):
            diffs.append("weak" if "weak" in a.mods else "not weak")
    if s.kind == "case":
        if (s.raw_value or None) != (a.raw_value or None):
            diffs.append(f"raw value {s.raw_value} -> {a.raw_value}")
    if s.kind == "typealias":
        if s.alias != a.alias:
            diffs.append(f"= {s.alias} -> {a.alias}")
    if s.kind in ("func", "init", "var", "class") and s.container or s.kind == "class":
        s_open = "open" in s.mods
        a_open = "open" in a.mods
        foreign = s.container and s.container not in s_types and s.kind != "class"
        if s.kind != "init" and s_open != a_open and not (a.kind == "var" and getattr(a, "let", False)
                                                          and "class" in a.mods and a_imported):
            if foreign:  # a member the shadow adds in an extension of a type it does not declare
                unknown.append("`open` (a member declared in an extension cannot be open without @objc)")
            else:
                diffs.append(f"{'open' if s_open else 'public'} -> {'open' if a_open else 'public'}")
        if ("final" in s.mods) != ("final" in a.mods):
            diffs.append("final" if "final" in a.mods else "not final")
    if "optional" in a.mods:
        unknown.append("`optional` requirement (Objective-C only)")
    si, ai = isolation(s, s_types, False), isolation(a, a_types, a_imported)
    if s.kind not in ("case", "typealias") and si != ai:
        diffs.append(f"isolation {si} -> {ai}")
    if s.kind in ("class", "struct", "enum", "protocol"):
        if s.kind != a.kind:
            diffs.append(f"{s.kind} -> {a.kind}")
        if a.key in PAGE_UNKNOWN_SENDABLE:
            unknown.append("Sendable (not shown on Apple's page)")
        else:
            ss, asb = sendable(s, s_types, False), sendable(a, a_types, a_imported)
            if ss != asb:
                diffs.append("Sendable -> not Sendable" if ss else "not Sendable -> Sendable")
        if superclass(s) != superclass(a):
            diffs.append(f"superclass {superclass(s)} -> {superclass(a)}")
        if s.kind == "enum":
            sr = next((x for x in s.inherits if x in RAW_TYPES), None)
            ar = next((x for x in a.inherits if x in RAW_TYPES), None)
            if sr != ar:
                diffs.append(f"raw type {sr} -> {ar}")
    s_av, a_av = s.available(), a.available()
    if s_av is not None and s_av != a_av and a_av is not None:
        if s_av.get("iOS") != a_av.get("iOS"):
            diffs.append(f"@available iOS {s_av.get('iOS')} -> {a_av.get('iOS')}")
        elif s_av != a_av:
            diffs.append(f"@available {s_av} -> {a_av}")
    if a.source == "page" and a_av is not None and s_av is None:
        diffs.append(f"@available missing -> iOS {a_av.get('iOS')}")
    return diffs, unknown


def implied(s, idx):
    """What the SDK has without printing it: `rawValue` of a RawRepresentable or OptionSet struct
    (the type of its `init(rawValue:)`), `init()` of an NSObject subclass (inherited)."""
    owner = idx.decls.get(s.container)
    if owner is None:
        return None
    if s.kind == "var" and s.name == "rawValue" and any(x in ("RawRepresentable", "OptionSet") for x in owner.inherits):
        init = idx.decls.get(f"{s.container}.init(rawValue:)")
        if init is not None:
            d = Decl("var", "rawValue", s.container, f"public var rawValue: {init.params[0]}", [], ["public"], "implied")
            d.type, d.settable, d.let, d.note = init.params[0], s.settable, False, "implied by RawRepresentable"
            return d
    if "CustomNSError" in owner.inherits and idx.decls.get(f"{s.container}.Code") is not None:
        # An imported NS_ERROR_ENUM: Foundation's _BridgedStoredNSError gives it these two.
        if s.kind == "var" and s.name == "code":
            d = Decl("var", "code", s.container, "public var code: Code { get }", [], ["public"], "implied")
            d.type, d.settable, d.let, d.note = "Code", False, False, "from Foundation's _BridgedStoredNSError"
            return d
        if s.kind == "init" and s.labels[:1] == ["_"]:
            d = Decl("init", "init", s.container, "public init(_ code: Code, userInfo: [String : Any] = [:])",
                     [], ["public"], "implied")
            fill_params(d, "_ code: Code, userInfo: [String : Any] = [:]")
            d.note = "from Foundation's _BridgedStoredNSError"
            return d
    if s.kind == "init" and not s.labels and owner.kind == "class":
        chain, cls = [], owner
        while cls is not None and superclass(cls):
            chain.append(superclass(cls))
            cls = idx.decls.get(superclass(cls))
        if "NSObject" in chain:
            d = Decl("init", "init", s.container, "public override init()", [], ["public", "override"], "implied")
            d.note = "inherited from NSObject"
            return d
    return None


def sdk_text(a):
    attrs = " ".join(x for x in a.attrs if not x.startswith("@available") or a.source == "page")
    return re.sub(r"\s+", " ", (attrs + " " + a.text).strip())


# ------------------------------------------------------------------------------------------ main

def shadow_declarations():
    out = []
    for fw in FRAMEWORKS:
        root = os.path.join(SHADOW, fw)
        for dirpath, dirs, files in sorted(os.walk(root)):
            if "/Backend" in dirpath[len(SHADOW):]:
                continue
            for f in sorted(files):
                if not f.endswith(".swift"):
                    continue
                path = os.path.join(dirpath, f)
                decls, types = parse_file(open(path, encoding="utf-8").read(), os.path.relpath(path, REPO), True)
                for d in decls:
                    out.append((fw, d, types))
    return out


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    markdown = "--markdown" in argv
    keep = None
    if "--keep" in argv:
        keep = argv[argv.index("--keep") + 1]
        args.remove(keep)
    sdk = args[0] if args else os.environ.get("IOS_SDK")
    if not sdk or not os.path.isdir(sdk):
        sys.exit("usage: scripts/shadow-vs-sdk.py SDK_DIR   (or set IOS_SDK to an iPhoneOS*.sdk folder)")
    sdk = os.path.abspath(sdk)
    if sdk.startswith(REPO + os.sep):
        sys.exit("the SDK must live outside the repository")
    work = keep or tempfile.mkdtemp(prefix="shadow-vs-sdk-")
    os.makedirs(work, exist_ok=True)
    if not keep:
        atexit.register(shutil.rmtree, work, True)

    shadow = shadow_declarations()
    all_types = {}
    for _, _, types in shadow:
        all_types.update(types)
    indexes = {}
    for fw in FRAMEWORKS:
        idx = Index()
        decls, types = parse_file(open(synthesize(sdk, fw, work), encoding="utf-8").read(), "sdk", False)
        idx.add(decls, types, True)
        ov = overlay(sdk, fw)
        if ov:
            decls, types = parse_file(open(ov, encoding="utf-8").read(), "overlay", False)
            idx.add(decls, types, False)
        indexes[fw] = idx
    page_index = Index()
    for key, (text, url) in APPLE_PAGES.items():
        container = key.rsplit(".", 1)[0] if "." in key.split("(")[0] else ""
        attrs, rest = leading_attributes(text)
        d = parse_header(rest, attrs, container, "page")
        d.url = url
        page_index.add([d], {}, False)
        if d.kind in TYPE_KEYWORDS:
            page_index.type_attrs[key] = attrs

    version = "?"
    settings = os.path.join(sdk, "SDKSettings.json")
    if os.path.exists(settings):
        m = re.search(r'"Version"\s*:\s*"([^"]+)"', open(settings).read())
        version = m.group(1) if m else "?"

    rows, counts = [], {"matched": 0, "changed": 0, "not checkable": 0, "partly": 0}
    for fw, s, s_types in shadow:
        a = page_index.decls.get(s.key) or indexes[fw].decls.get(s.key) or implied(s, indexes[fw])
        a_types = page_index.type_attrs if a is not None and a.source == "page" else indexes[fw].type_attrs
        if a is None:
            rows.append((fw, s, "not checkable: no SDK declaration of this name", ""))
            counts["not checkable"] += 1
            continue
        diffs, unknown = compare(s, a, all_types, a_types, getattr(a, "imported", False))
        src = getattr(a, "url", None) or ("SDK " + version + (" overlay" if a.source == "overlay" else "")
                                          + (", " + a.note if getattr(a, "note", None) else ""))
        if diffs:
            counts["changed"] += 1
            verdict = "differs: " + "; ".join(diffs)
        else:
            counts["matched"] += 1
            verdict = "matched"
        if unknown:
            verdict += " (not checkable: " + "; ".join(unknown) + ")"
            counts["partly"] += 1
        rows.append((fw, s, verdict, f"{sdk_text(a)}  [{src}]"))

    if markdown:
        print("| # | Declaration | Result | SDK |")
        print("|---|---|---|---|")
        for i, (fw, s, verdict, text) in enumerate(rows, 1):
            esc = lambda x: x.replace("|", "\\|")
            print(f"| {i} | `{esc(s.key)}` ({fw}) | {esc(verdict)} | `{esc(text)}` |")
    else:
        for fw, s, verdict, text in rows:
            print(f"{s.key} | {verdict} | {text}")
    total = len(rows)
    print(f"\nSDK {os.path.basename(sdk)} (SDKSettings.json: iOS {version}); {total} declarations checked: "
          f"{counts['matched']} matched, {counts['changed']} differ, {counts['not checkable']} without an SDK "
          f"counterpart; {counts['partly']} with an attribute that cannot be checked (see the rows)")
    return 1 if counts["changed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
