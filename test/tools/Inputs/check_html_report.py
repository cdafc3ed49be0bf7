"""Checks a `dlc analyze --html` report: self-contained (no network
references), and rendered by headless Chromium into a page that is not
blank, with its plots present in the rendered DOM.

usage: check_html_report.py --chromium CHROMIUM REPORT.html WORKDIR
"""
import argparse
import os
import re
import subprocess
import sys

from PIL import Image


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--chromium", required=True)
    p.add_argument("report")
    p.add_argument("workdir")
    args = p.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    html = open(args.report, encoding="utf-8").read()

    # No fetches: no src/href/url() to a network address, no imports.
    external = re.findall(r'(?:src|href)\s*=\s*"(?:https?:)?//[^"]*"|url\(\s*["\']?(?:https?:)?//|@import', html)
    if external:
        print("FAIL: external references:", external)
        sys.exit(1)

    url = "file://" + os.path.abspath(args.report)
    flags = ["--headless", "--no-sandbox", "--disable-gpu",
             "--disable-dev-shm-usage", "--no-first-run",
             "--user-data-dir=" + os.path.join(args.workdir, "profile")]
    png = os.path.join(args.workdir, "report.png")
    subprocess.run([args.chromium] + flags +
                   ["--screenshot=" + png, "--window-size=1300,2200", url],
                   check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=120)
    dom = subprocess.run([args.chromium] + flags + ["--dump-dom", url],
                         check=True, capture_output=True, text=True,
                         timeout=120).stdout

    counts = {
        "svg": dom.count("<svg"),
        "roof": dom.count('class="roof"'),
        "point": dom.count('class="point"'),
        "latency": dom.count('class="latency-cpu"') + dom.count('class="latency-gpu-transfers"'),
        "memory": dom.count('class="memory"') + dom.count('class="capacity"'),
        "markers": dom.count('class="marker"'),
        "rows": dom.count("<tr>") - 1,
    }
    image = Image.open(png).convert("RGB")
    width, height = image.size
    pixels = image.getdata()
    ink = sum(1 for px in pixels if px != (255, 255, 255))
    colors = len(set(pixels))
    ink_share = ink / (width * height)
    print("plots: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"screenshot: {width}x{height}, {100 * ink_share:.1f}% not white, "
          f"{colors} colors")
    ok = (ink_share > 0.02 and colors > 16 and counts["svg"] >= 5 and
          counts["roof"] >= 2 and counts["point"] >= 1 and
          counts["latency"] >= 2 and counts["memory"] >= 2 and
          counts["rows"] >= 1)
    print("OK" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
