import pytest
from scrapy.http import HtmlResponse

from scrapy_boilerplate.html import decode_html, looks_binary
from scrapy_boilerplate.page import Page


def test_bom_wins_over_meta_and_header():
    body = "\ufeff<html><meta charset='latin-1'><p>café</p>".encode("utf-8")
    assert "café" in decode_html(body, "text/html; charset=latin-1")


def test_http_charset_wins_over_meta():
    body = "<meta charset='utf-8'><p>привет</p>".encode("cp1251")
    assert "привет" in decode_html(body, "text/html; charset=windows-1251")


def test_meta_charset_used_without_header():
    body = '<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"></head><p>naïve</p>'
    assert "naïve" in decode_html(body.encode("latin-1"))


def test_utf8_default_and_replacement_for_mis_encoded_bytes():
    assert "日本" in decode_html("<p>日本</p>".encode())
    text = decode_html(b"<p>caf\xe9 \xff\xfe ok</p>", "text/html; charset=utf-8")
    assert "\ufffd" in text and "ok" in text


def test_empty_body_gives_empty_text():
    assert decode_html(b"") == ""


def test_binary_sniffing():
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 20
    assert looks_binary(png)
    assert not looks_binary("<html><body><p>plain text é</p></body></html>".encode())
    assert not looks_binary(b"")


def test_undeclared_legacy_page_is_read_as_windows_1252():
    body = "<html><body><p>They aren’t at the café – “yet”.</p></body></html>".encode("cp1252")
    assert "They aren’t at the café – “yet”." in decode_html(body)


def test_undeclared_valid_utf8_stays_utf8_and_declared_charsets_win():
    assert "aren’t café" in decode_html("<p>aren’t café</p>".encode())
    legacy = "<p>aren’t</p>".encode("cp1252")
    assert "\ufffd" in decode_html(legacy, "text/html; charset=utf-8")  # a declared charset is obeyed
    assert "\ufffd" in decode_html(b'<meta charset="utf-8"><p>aren\x92t</p>')


# Codecs Python knows that decode no text: a page declaring one is read as if it declared nothing.
NON_TEXT_CODECS = ["base64", "hex", "rot13", "zlib", "bz2", "uu", "quopri", "idna", "undefined"]


@pytest.mark.parametrize("codec", NON_TEXT_CODECS)
def test_a_charset_that_is_no_text_encoding_is_passed_over(codec):
    page = "<p>naïve café</p>".encode()
    declared_in_meta = f'<meta charset="{codec}">'.encode() + page
    assert decode_html(declared_in_meta).endswith("<p>naïve café</p>")
    assert decode_html(page, f"text/html; charset={codec}") == "<p>naïve café</p>"
    assert Page.from_bytes(declared_in_meta, "http://a.example/").html.endswith("<p>naïve café</p>")
    response = HtmlResponse("http://a.example/", body=page, headers={"Content-Type": f"text/html; charset={codec}"})
    assert Page.from_response(response).html == "<p>naïve café</p>"


def test_a_usable_meta_charset_is_used_when_the_header_names_no_text_encoding():
    body = '<meta charset="koi8-r"><p>привет</p>'.encode("koi8-r")
    assert "привет" in decode_html(body, "text/html; charset=base64")
