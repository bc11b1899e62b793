"""moderation"""
