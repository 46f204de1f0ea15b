"""`bough show -o view.html` in headless Chromium (Debian's chromium, chromium-driver and
python3-selenium, which scripts/setup installs; missing, the tests fail). On the example (a
Loop body holding an If) and on a generated 5,000-node model: the page loads in under 2 s,
search finds a node, a click opens a subgraph box in place, the capture edge of a known
captured value is drawn, the wheel zooms and a drag pans (the example), and the console
holds no error. BOUGH_SHOW_SCREENSHOTS=DIR saves a screenshot of each page there
(docs/show/ keeps them)."""
import os
import re
import subprocess
import sys

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

HERE = os.path.dirname(os.path.abspath(__file__))
BOUGH = os.environ.get("BOUGH_CLI", "build/bough")
SOURCE = os.environ.get("BOUGH_SOURCE_DIR", os.path.dirname(os.path.dirname(HERE)))
SHOTS = os.environ.get("BOUGH_SHOW_SCREENSHOTS")


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,900",
                "--disable-dev-shm-usage"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    yield driver
    driver.quit()


def page(tmp_path, model, name):
    out = tmp_path / name
    subprocess.run([BOUGH, "show", str(model), "-o", str(out)], check=True)
    return out


def load(browser, path):
    """Opens the page; returns the milliseconds from navigation to its first frame painted,
    as the page measured them (performance.now() then)."""
    browser.get_log("browser")  # drop what an earlier page logged
    browser.get("file://" + str(path))
    WebDriverWait(browser, 30).until(lambda b: b.execute_script("return window.boughReadyMs"))
    return browser.execute_script("return window.boughReadyMs")


def search(browser, text):
    box = browser.find_element(By.ID, "search")
    box.clear()
    box.send_keys(text + Keys.ENTER)
    return browser.find_element(By.ID, "found").text


def open_box(browser, graph):
    """Clicks the folded box of subgraph `graph` (its index in the page's JSON)."""
    box = browser.find_element(By.CSS_SELECTOR, f'.sub[data-sub="{graph}"] > rect')
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))",
                           box)
    return browser.find_element(By.CSS_SELECTOR, f'.sub[data-sub="{graph}"]')


def graph_index(browser, path):
    return browser.execute_script(
        "return JSON.parse(document.getElementById('model').textContent).graphs"
        ".findIndex(g => g.path === arguments[0])", path)


def transform(browser):
    """(tx, ty, scale) of the drawing."""
    t = browser.find_element(By.ID, "view").get_attribute("transform")
    x, y, k = re.match(r"translate\(([-\d.e]+),([-\d.e]+)\) scale\(([-\d.e]+)\)", t).groups()
    return float(x), float(y), float(k)


def zoom_and_pan(browser):
    """A wheel turn up zooms in around the pointer; a drag moves the drawing by as much."""
    x, y, k = transform(browser)
    browser.execute_script(
        "document.getElementById('canvas').dispatchEvent(new WheelEvent('wheel', "
        "{deltaY: -200, clientX: 700, clientY: 400, bubbles: true, cancelable: true}))")
    assert transform(browser)[2] > k
    x, y, k = transform(browser)
    browser.execute_script("""
        const svg = document.getElementById('canvas');
        const at = (type, x, y) => (type === 'pointerdown' ? svg : window).dispatchEvent(
          new PointerEvent(type, {clientX: x, clientY: y, bubbles: true}));
        at('pointerdown', 500, 500); at('pointermove', 560, 420); at('pointerup', 560, 420);""")
    moved = transform(browser)
    assert (round(moved[0] - x), round(moved[1] - y), moved[2]) == (60, -80, k)


def errors(browser):
    return [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def screenshot(browser, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        browser.save_screenshot(os.path.join(SHOTS, name))


def test_example_if_in_loop(browser, tmp_path):
    path = page(tmp_path, os.path.join(SOURCE, "examples", "if_loop.onnx"), "example.html")
    assert load(browser, path) < 2000
    body = graph_index(browser, 'main/Loop "steps"/body')
    then = graph_index(browser, 'main/Loop "steps"/body/If "even_or_odd"/then_branch')
    assert body > 0 and then > 0
    # Folded at first: the body's box, no item of the body drawn.
    assert not browser.find_elements(By.CSS_SELECTOR, f'.item[data-g="{body}"]')
    assert "open" in open_box(browser, body).get_attribute("class")
    assert browser.find_elements(By.CSS_SELECTOR, f'.item[data-g="{body}"]')
    # x_in enters both branches by name: capture edges to the If's folded branch boxes, and
    # the folded boxes list it.
    captures = browser.find_elements(By.CSS_SELECTOR, 'path.edge.capture[data-v="x_in"]')
    assert len(captures) == 2
    folded = browser.find_element(By.CSS_SELECTOR, f'.sub[data-sub="{then}"]')
    assert "captures:" in folded.get_attribute("textContent")
    assert "x_in" in folded.get_attribute("textContent")
    open_box(browser, then)
    assert browser.find_elements(By.CSS_SELECTOR, f'.item.k-cap[data-g="{then}"]')
    # Search by value name: x_else is made by the else branch's Mul (first) and is that
    # branch's output; the branch opens to show it.
    assert search(browser, "x_else") == "1 of 2"
    details = browser.find_element(By.ID, "details").text
    assert "Mul" in details and "half" in details and "min 0.5" in details
    screenshot(browser, "example_html.png")
    zoom_and_pan(browser)
    assert errors(browser) == []


def test_five_thousand_nodes(browser, tmp_path):
    model = tmp_path / "big.onnx"
    subprocess.run([sys.executable, os.path.join(HERE, "make_big_model.py"), str(model)],
                   check=True)
    path = page(tmp_path, model, "big.html")
    ms = load(browser, path)
    print(f"5,002-node page painted {ms:.0f} ms after navigation")
    assert ms < 2000
    assert browser.execute_script(
        "return JSON.parse(document.getElementById('model').textContent).graphs[0].items"
        ".filter(it => it.k === 'op').length") == 4994
    # Search by node name, deep down the graph: the view moves there and the panel shows it.
    assert search(browser, "block250/gated") == "1 of 1"
    details = browser.find_element(By.ID, "details").get_attribute("textContent")
    assert "block250/gated" in details and "block250/a2" in details
    assert browser.find_elements(By.CSS_SELECTOR, ".item.sel.k-op")
    # The If after block 300 reads h_300 in both branches: capture edges into its boxes.
    assert search(browser, "gate_300") == "1 of 1"
    assert len(browser.find_elements(By.CSS_SELECTOR, 'path.edge.capture[data-v="h_300"]')) == 2
    branch = graph_index(browser, 'main/If "gate_300"/then_branch')
    assert "open" in open_box(browser, branch).get_attribute("class")
    assert browser.find_elements(By.CSS_SELECTOR, f'.item.k-cap[data-g="{branch}"]')
    screenshot(browser, "big_html.png")
    assert errors(browser) == []
