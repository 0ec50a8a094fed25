"""The fonts the printed sheets name: `make run` installs them where it can, and the server says at
start, in words, which are missing and how to install them (scoresheets/fonts.txt, read by both)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.serve import blankless, font_advice, font_packages, missing_fonts

ROOT = Path(__file__).resolve().parent.parent


def venue_fonts(root: Path, leave_out: str = "") -> Path:
    """A fonts folder holding a file of every package the sheets need, but ``leave_out``'s."""
    for package in font_packages():
        if package.package != leave_out:
            file = root / package.pattern.replace("?", "c")
            file.parent.mkdir(parents=True, exist_ok=True)
            file.touch()
    return root


def test_every_family_the_sheets_name_is_in_the_list():
    css = (ROOT / "scoresheets" / "print.css").read_text(encoding="utf-8")
    named = {name for value in re.findall(r"font-family:([^;]+);", css) for name in re.findall(r'"([^"]+)"', value)}
    assert {"DejaVu Sans", "Noto Sans Thai", "Noto Sans CJK JP", "DejaVu Sans Mono"} <= named
    listed = {family for package in font_packages() for family in package.families}
    assert named <= listed, named - listed
    # Faces the sheets reach without naming them: the condensed why (font-stretch), an emoji in a name.
    assert "font-stretch: condensed" in css and {"DejaVu Sans Condensed", "Noto Color Emoji"} <= listed


def test_a_missing_package_is_named_with_the_line_that_installs_it(tmp_path):
    fonts = venue_fonts(tmp_path / "fonts", leave_out="fonts-noto-cjk")
    missing = missing_fonts(fonts, known=set())
    assert [p.package for p in missing] == ["fonts-noto-cjk"]
    assert font_advice(missing, root=False) == [
        "Courtier: without fonts-noto-cjk, sheets print boxes for Chinese, Japanese and Korean names: "
        "sudo apt-get install fonts-noto-cjk"]
    assert font_advice(missing, root=True)[0].endswith(": apt-get install fonts-noto-cjk")
    # Installed another way (fontconfig knows each of its families, in its own spelling): not missing.
    assert missing_fonts(fonts, known={"notosanscjkjp", "notosanscjkkr"}) == []
    assert missing_fonts(fonts, known={"notosanscjkjp"}) == missing
    assert blankless("Noto Sans Symbols 2") == blankless("Noto Sans Symbols2")


def test_this_machine_has_every_font_the_sheets_name():
    """What `make run` (its fonts step, then the server's check) finds here: nothing missing."""
    assert missing_fonts() == []
    done = subprocess.run(["sh", "scripts/system-deps.sh", "fonts"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_make_run_sets_up_the_fonts_first_from_the_same_list(tmp_path):
    dry = subprocess.run(["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    commands = dry.stdout.splitlines()
    assert commands.index("sh scripts/system-deps.sh fonts") < next(
        i for i, c in enumerate(commands) if "-m companion.serve" in c)
    # Where it cannot install (no apt-get here), it names what it would have installed: the same package.
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "id").symlink_to("/usr/bin/id")
    fonts = venue_fonts(tmp_path / "fonts", leave_out="fonts-noto-cjk")
    done = subprocess.run(["/bin/sh", "scripts/system-deps.sh", "fonts"], cwd=ROOT, capture_output=True, text=True,
                          env={"PATH": str(tools), "FONTS_ROOT": str(fonts)}, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ("cannot install fonts-noto-cjk here (that needs root and apt-get); Courtier will say "
                           "which sheets need them\n")


def test_the_server_says_at_start_what_the_sheets_lack(tmp_path):
    """`make run` on a machine without Noto CJK (its fonts folder faked here, and fontconfig knowing none)."""
    fonts = venue_fonts(tmp_path / "fonts", leave_out="fonts-noto-cjk")
    with socket.socket() as taken:  # the port is taken, so the server stops right after its start's checks
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        start = ("import sys; from pathlib import Path; import companion.serve as serve; "
                 f"serve.FONTS_ROOT = Path({str(fonts)!r}); serve.fontconfig_families = set; "
                 f"serve.main(['--host', '127.0.0.1', '--port', '{taken.getsockname()[1]}'])")
        done = subprocess.run([sys.executable, "-c", start], cwd=ROOT, capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, COURTIER_DATABASE=str(tmp_path / "venue.sqlite"),
                                       COURTIER_SECRET_KEY="fonts-test"), check=False)
    sudo = "" if os.geteuid() == 0 else "sudo "
    said = [line for line in done.stdout.splitlines() if line.startswith("Courtier: without")]
    assert said == [f"Courtier: without fonts-noto-cjk, sheets print boxes for Chinese, Japanese and Korean names: "
                    f"{sudo}apt-get install fonts-noto-cjk"], done.stdout + done.stderr
    assert done.stdout.startswith(said[0])  # first, before anything else the server says


@pytest.mark.parametrize("leave_out", [p.package for p in font_packages()])
def test_each_package_is_found_missing_alone(tmp_path, leave_out):
    assert [p.package for p in missing_fonts(venue_fonts(tmp_path, leave_out), known=set())] == [leave_out]
