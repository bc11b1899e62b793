"""scraper"""
