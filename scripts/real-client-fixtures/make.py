"""
Writes test/fixtures/real-clients/ with LibreOffice Calc, the way people's spreadsheet programs write the files they
upload: a forecast template typed in a sheet and saved as XLSX, as the CSV Excel in Portuguese writes (";", numbers as
shown, Windows-1252, no BOM), as UTF-8 with a BOM and as "Texto Unicode" (UTF-16 LE with a BOM, tab-separated); and
portal exports (made by `npx tsx scripts/real-client-fixtures/exports.ts`, which this script runs first) opened,
edited and saved again by Calc.

A development machine needs Calc and its Python bridge (CI uses the committed files):
    apt-get install -y --no-install-recommends libreoffice-calc-nogui python3-uno
    /usr/bin/python3 scripts/real-client-fixtures/make.py     (Debian's Python: the one python3-uno is built for)
"""

import datetime
import os
import subprocess
import sys
import tempfile
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.lang import Locale

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "test", "fixtures", "real-clients")
PORT = 2202
PT_BR = Locale("pt", "BR", "")

# The CSV export filter's options: separator, text delimiter, character set, first line, cell formats, language,
# quoted as text, detect special numbers, save as shown, formulas, trim spaces, sheet, evaluate, byte-order mark.
# Character sets by LibreOffice's numbers: 1 Windows-1252, 76 UTF-8, 65535 UTF-16 (little-endian, with a BOM).
CSV_EXCEL_PT_BR = "59,34,1,1,,1046,false,false,true,false,false,,false,false"
CSV_UTF8 = "59,34,76,1,,1046,false,false,true,false,false,,false,true"
TEXTO_UNICODE = "9,34,65535,1,,1046,false,false,true,false,false,,false,true"
XLSX = "Calc MS Excel 2007 XML"

FORECAST_HEADER = [
    "rf", "cost_center_concat", "cost_center", "level_descr", "group_level_2", "data_ref",
    "account_concat", "acc_description", "value", "forecast",
]
# What autocorrect types in Portuguese: en and em dashes, curly quotes, the euro sign, a bullet.
FORECAST_ROWS = [
    ["RF1 2026", "CC1001 - Marketing", "CC1001", "Comercial – Sul", "Despesas com Pessoal", datetime.date(2026, 1, 1),
     "4101001 - Salários e Ordenados", "Salários “fixos” — d’Ávila • 5 €", 1234.5, 182500],
    ["RF1 2026", "CC1001 - Marketing", "CC1001", "Comercial – Sul", "Despesas com Pessoal", datetime.date(2026, 2, 1),
     "4101001 - Salários e Ordenados", "", 0, -1234.56],
]


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def url(path):
    return uno.systemPathToFileUrl(os.path.abspath(path))


def start_calc():
    profile = tempfile.mkdtemp(prefix="lo-fixtures-")
    calc = subprocess.Popen([
        "soffice", "--headless", "--invisible", "--nologo", "--norestore", "--nodefault",
        f"-env:UserInstallation={uno.systemPathToFileUrl(profile)}",
        f"--accept=socket,host=127.0.0.1,port={PORT};urp;",
    ])
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    for _ in range(120):
        try:
            ctx = resolver.resolve(f"uno:socket,host=127.0.0.1,port={PORT};urp;StarOffice.ComponentContext")
            return calc, ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        except Exception:
            time.sleep(0.5)
    calc.kill()
    sys.exit("LibreOffice did not start")


def number_format(doc, code):
    formats = doc.NumberFormats
    key = formats.queryKey(code, PT_BR, False)
    return key if key != -1 else formats.addNew(code, PT_BR)


def serial(day):
    return (day - datetime.date(1899, 12, 30)).days


def forecast_sheet(desktop, numbers_as_text=False, trailing_empties=False):
    doc = desktop.loadComponentFromURL("private:factory/scalc", "_blank", 0, (prop("Hidden", True),))
    sheet = doc.Sheets.getByIndex(0)
    money = number_format(doc, "#.##0,00")
    date = number_format(doc, "DD/MM/AAAA")
    text = number_format(doc, "@")
    for c, name in enumerate(FORECAST_HEADER):
        sheet.getCellByPosition(c, 0).setString(name)
    for r, row in enumerate(FORECAST_ROWS, start=1):
        for c, value in enumerate(row):
            cell = sheet.getCellByPosition(c, r)
            if isinstance(value, datetime.date):
                cell.NumberFormat = date
                cell.setValue(serial(value))
            elif isinstance(value, (int, float)):
                if numbers_as_text:
                    # Typed into a text-formatted cell: the thousands separator is part of the text.
                    cell.NumberFormat = text
                    shown = f"{value:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")
                    cell.setString(shown)
                else:
                    cell.NumberFormat = money
                    cell.setValue(value)
            elif value != "":
                cell.setString(value)
    if trailing_empties:
        # Columns and rows a user formatted and left empty: Calc writes them as empty cells with a style.
        for r in range(0, len(FORECAST_ROWS) + 4):
            for c in range(len(FORECAST_HEADER), len(FORECAST_HEADER) + 3):
                sheet.getCellByPosition(c, r).NumberFormat = money
        for r in range(len(FORECAST_ROWS) + 1, len(FORECAST_ROWS) + 4):
            for c in range(0, len(FORECAST_HEADER)):
                sheet.getCellByPosition(c, r).NumberFormat = money
    return doc


def save(doc, name, filter_name, options=None):
    props = [prop("FilterName", filter_name), prop("Overwrite", True)]
    if options:
        props.append(prop("FilterOptions", options))
    doc.storeToURL(url(os.path.join(OUT, name)), tuple(props))


def add_bom(path):
    """Calc 7.4 (Debian 12) has no option to write a UTF-8 byte-order mark (7.6 added it); Excel's "CSV UTF-8" has one."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(b"\xef\xbb\xbf"):
        with open(path, "wb") as f:
            f.write(b"\xef\xbb\xbf" + data)


def edit_export(desktop, source, target, edits):
    """Opens a portal export, types new values into cells (sheet 0, 0-based column and row), saves it as XLSX."""
    doc = desktop.loadComponentFromURL(url(source), "_blank", 0, (prop("Hidden", True),))
    sheet = doc.Sheets.getByIndex(0)
    for column, row, value in edits:
        cell = sheet.getCellByPosition(column, row)
        if isinstance(value, str):
            cell.setString(value)
        else:
            cell.setValue(value)
    save(doc, target, XLSX)
    doc.close(True)


def main():
    os.makedirs(OUT, exist_ok=True)
    exports = tempfile.mkdtemp(prefix="portal-exports-")
    subprocess.run(["npx", "tsx", "scripts/real-client-fixtures/exports.ts", exports], cwd=ROOT, check=True)
    calc, desktop = start_calc()
    try:
        doc = forecast_sheet(desktop)
        save(doc, "forecast-excel-pt-br.csv", "Text - txt - csv (StarCalc)", CSV_EXCEL_PT_BR)
        save(doc, "forecast-utf8-bom.csv", "Text - txt - csv (StarCalc)", CSV_UTF8)
        add_bom(os.path.join(OUT, "forecast-utf8-bom.csv"))
        save(doc, "forecast-texto-unicode.txt", "Text - txt - csv (StarCalc)", TEXTO_UNICODE)
        save(doc, "forecast-libreoffice.xlsx", XLSX)
        doc.close(True)
        doc = forecast_sheet(desktop, numbers_as_text=True, trailing_empties=True)
        save(doc, "forecast-typed-text.xlsx", XLSX)
        doc.close(True)
        # The planning export: the quantity (column E) of its first data row changed from 10 to 11.
        edit_export(desktop, os.path.join(exports, "planejamento.xlsx"), "planejamento-libreoffice.xlsx", [(4, 1, 11)])
    finally:
        try:
            desktop.terminate()
        except Exception:
            pass
        calc.wait(timeout=30)


if __name__ == "__main__":
    main()
