"""parsers"""
