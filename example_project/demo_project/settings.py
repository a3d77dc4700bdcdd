"""Settings of the example project: the add-on line is all scrapy-boilerplate needs."""

BOT_NAME = "demo_project"
SPIDER_MODULES = ["demo_project.spiders"]
NEWSPIDER_MODULE = "demo_project.spiders"

# scrapy-boilerplate: learn each site's template from a sample of its pages, clean every item.
ADDONS = {"scrapy_boilerplate.Addon": 500}
BOILERPLATE_SAMPLE_SIZE = 20
# BOILERPLATE_MODEL = "style_tree"      # any registered model spec, e.g. "name:param=value"
# BOILERPLATE_CLEANED_HTML_FIELD = "clean_html"

ROBOTSTXT_OBEY = False  # the demo corpus is served on localhost without robots.txt
CONCURRENT_REQUESTS = 16
TELNETCONSOLE_ENABLED = False
LOG_LEVEL = "INFO"
